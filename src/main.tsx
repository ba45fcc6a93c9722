import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./components/App.tsx";
import { bootRuns, bootStudio } from "./state/boot.ts";
import { probeNow } from "./state/inbrowserController.ts";
import "./styles.css";

const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root element");
bootStudio();
void bootRuns();
void probeNow();
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
