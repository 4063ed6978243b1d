import "./style.css";
import { mountBanner } from "./banner";
import { mountShell } from "./shell";
import { mountInjections } from "./views/injections";
import { mountInstaller } from "./views/installer";
import { mountMemory } from "./views/memory";
import { mountSessions } from "./views/sessions";
import { mountSettings } from "./views/settings";

mountBanner(document.getElementById("banner")!);
mountShell(document.getElementById("app")!, [
  { id: "sessions", title: "Sessions", mount: mountSessions },
  { id: "memory", title: "Memory", mount: mountMemory },
  { id: "injections", title: "Injection log", mount: mountInjections },
  { id: "settings", title: "Settings", mount: mountSettings },
  { id: "installer", title: "Installer", mount: mountInstaller },
]);
