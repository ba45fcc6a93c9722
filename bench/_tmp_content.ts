import { benchContent } from "./content.ts";
await benchContent("/work/wt/polish/dist");
