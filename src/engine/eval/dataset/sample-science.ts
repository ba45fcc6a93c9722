import { sampleId } from "./sample-items.ts";
import type { EvalItem } from "./item-schema.ts";

type Row = [question: string, correct: string, ...wrong: string[]];

const ROWS: Row[] = [
  [
    "Which gas do plants take in from the air for photosynthesis?",
    "Carbon dioxide",
    "Oxygen",
    "Nitrogen",
    "Helium",
  ],
  [
    "What is the main job of red blood cells?",
    "Carrying oxygen",
    "Fighting infection",
    "Clotting blood",
    "Digesting fat",
  ],
  ["Which planet has the shortest year?", "Mercury", "Venus", "Mars", "Neptune"],
  [
    "What happens to the boiling point of water at high altitude?",
    "It is lower",
    "It is higher",
    "It does not change",
    "Water cannot boil there",
  ],
  ["Which particle has no electric charge?", "Neutron", "Proton", "Electron", "Positron"],
  [
    "A ball is thrown straight up. At the top of its path, its acceleration is",
    "Downward, about 9.8 m/s²",
    "Zero",
    "Upward, about 9.8 m/s²",
    "Sideways",
  ],
  ["Which kind of rock forms from cooled lava?", "Igneous", "Sedimentary", "Metamorphic", "Fossil"],
  ["What is the pH of pure water at 25 °C?", "7", "0", "5", "14"],
  ["Which organ filters urea out of the blood?", "Kidney", "Liver", "Lung", "Stomach"],
  ["Sound travels fastest through", "Steel", "Air", "Water", "A vacuum"],
  ["What is the chemical symbol for sodium?", "Na", "So", "Sd", "S"],
  [
    "Which process turns liquid water into water vapour below its boiling point?",
    "Evaporation",
    "Condensation",
    "Sublimation",
    "Freezing",
  ],
  [
    "In a series circuit, if one bulb breaks, the other bulbs",
    "Go out",
    "Get brighter",
    "Stay the same",
    "Flicker forever",
  ],
  [
    "Which layer of the atmosphere contains most of the ozone?",
    "Stratosphere",
    "Troposphere",
    "Mesosphere",
    "Exosphere",
  ],
  [
    "What do we call an animal that eats only plants?",
    "Herbivore",
    "Carnivore",
    "Omnivore",
    "Decomposer",
  ],
  [
    "Which force keeps the Moon in orbit around the Earth?",
    "Gravity",
    "Magnetism",
    "Friction",
    "Air pressure",
  ],
  [
    "Which of these is a mixture rather than a compound?",
    "Salt water",
    "Table salt",
    "Water",
    "Carbon dioxide",
  ],
  ["What is the unit of electrical resistance?", "Ohm", "Volt", "Ampere", "Watt"],
  [
    "DNA is found mainly in which part of a plant cell?",
    "Nucleus",
    "Cell wall",
    "Vacuole",
    "Chloroplast membrane",
  ],
  [
    "Light bends when it passes from air into glass. This is called",
    "Refraction",
    "Reflection",
    "Diffraction",
    "Absorption",
  ],
];

/** Twenty four-choice science questions, written for this project; `expected` is the option text. */
export const SAMPLE_SCIENCE: EvalItem[] = ROWS.map(([question, correct, ...wrong], i) => ({
  id: sampleId("sci", i),
  question,
  expected: correct,
  choices: [correct, ...wrong],
  kind: "mc",
}));
