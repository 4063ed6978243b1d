import "./style.css";
import { mountShell } from "./shell";
import { mountSessions } from "./views/sessions";
import { mountSettings } from "./views/settings";

mountShell(document.getElementById("app")!, [
  { id: "sessions", title: "Sessions", mount: mountSessions },
  { id: "settings", title: "Settings", mount: mountSettings },
]);
