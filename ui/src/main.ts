import "./style.css";
import { mountBanner } from "./banner";
import { mountShell } from "./shell";
import { mountSessions } from "./views/sessions";
import { mountSettings } from "./views/settings";

mountBanner(document.getElementById("banner")!);
mountShell(document.getElementById("app")!, [
  { id: "sessions", title: "Sessions", mount: mountSessions },
  { id: "settings", title: "Settings", mount: mountSettings },
]);
