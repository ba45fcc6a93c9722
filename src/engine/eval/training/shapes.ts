import type { ChatMessage } from "../../schema/usage.ts";
import type { ConductorSample } from "./sample.ts";

/**
 * Trainers generate a new assistant turn, so a prompt that ends with the Conductor's opening (a
 * partial assistant message) has it folded into the user message, as docs/protocol.md §1.4 does for
 * backends that cannot continue one. The completion then starts after the opening.
 */
export function trainerPrompt(messages: readonly ChatMessage[]): ChatMessage[] {
  const last = messages.at(-1);
  if (last?.role !== "assistant") return [...messages];
  const rest = messages.slice(0, -1);
  const user = rest.findLastIndex((m) => m.role === "user");
  if (user < 0) return rest;
  return rest.map((m, i) =>
    i === user ? { ...m, content: `${m.content}\n\n${last.content}` } : m,
  );
}

/** GRPO prompt set: one row per question (`prompt` as chat messages plus `ground_truth`). */
export function grpoRows(samples: readonly ConductorSample[]) {
  const seen = new Map<string, { prompt: ChatMessage[]; ground_truth: string; group_id: string }>();
  for (const s of samples)
    if (!seen.has(s.group_id) && s.ground_truth !== null)
      seen.set(s.group_id, {
        prompt: trainerPrompt(s.prompt),
        ground_truth: s.ground_truth,
        group_id: s.group_id,
      });
  return [...seen.values()];
}

/** SFT rows `{prompt, completion}` (conversational) from the correct, well-formed samples. */
export function sftRows(samples: readonly ConductorSample[]) {
  return samples
    .filter((s) => s.reward.correct === 1 && s.reward.format === 1)
    .map((s) => ({
      prompt: trainerPrompt(s.prompt),
      completion: [{ role: "assistant" as const, content: s.completion }],
    }));
}

/** Preference pairs `{prompt, chosen, rejected}` within a question's group: each better sample against each worse one. */
export function preferenceRows(samples: readonly ConductorSample[], maxPerGroup = 4) {
  const groups = new Map<string, ConductorSample[]>();
  for (const s of samples)
    if (s.scored) groups.set(s.group_id, [...(groups.get(s.group_id) ?? []), s]);
  const rows: {
    prompt: ChatMessage[];
    chosen: ChatMessage[];
    rejected: ChatMessage[];
    group_id: string;
  }[] = [];
  for (const [group, list] of groups) {
    let n = 0;
    for (const good of list.filter((s) => s.reward.total > 0))
      for (const bad of list.filter((s) => s.reward.total < good.reward.total)) {
        if (n++ >= maxPerGroup) break;
        rows.push({
          prompt: trainerPrompt(good.prompt),
          chosen: [{ role: "assistant", content: good.completion }],
          rejected: [{ role: "assistant", content: bad.completion }],
          group_id: group,
        });
      }
  }
  return rows;
}

/** verl's columns: data_source, prompt, ability, reward_model {style, ground_truth}, extra_info. */
export function verlRows(
  samples: readonly ConductorSample[],
  dataSource: string,
  ability = "reasoning",
) {
  return grpoRows(samples).map((r, index) => ({
    data_source: dataSource,
    prompt: r.prompt.map((m) => ({ role: m.role, content: m.content })),
    ability,
    reward_model: { style: "rule", ground_truth: r.ground_truth },
    extra_info: { index, split: "train", group_id: r.group_id },
  }));
}
