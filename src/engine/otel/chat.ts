/**
 * The attributes of one model call (a `chat` span): the GenAI semantic conventions' request,
 * response and usage attributes, OpenInference's LLM attributes for Phoenix, and the contents
 * only when asked for (the conventions' opt-in rule).
 */
import type { ChatMessage, Usage } from "../schema/usage.ts";
import { OPENAI_COMPATIBLE, providerOf, serverOf } from "./provider.ts";
import type { Attributes } from "./span.ts";
import { double } from "./span.ts";

/** Where a call went: never a key or a header, only what names the model and its server. */
export interface Endpoint {
  kind: "openai" | "webllm" | "conductor";
  baseURL: string;
  model: string;
  temperature?: number;
  maxTokens?: number;
}

/** How a call ended. */
export type CallEnd =
  { kind: "done" } | { kind: "failed"; code: string; message: string } | { kind: "unfinished" };

export interface CallFacts {
  endpoint: Endpoint;
  messages: readonly ChatMessage[];
  /** The answer text of the call, when it produced one (a failed attempt's is not kept). */
  output: string | null;
  reasoning: string | undefined;
  usage: Usage | null;
  cost: number | null;
  end: CallEnd;
}

/** The provider of an endpoint; an in-browser model is `webllm` (a custom value). */
export function providerName(endpoint: Pick<Endpoint, "kind" | "baseURL">): string {
  if (endpoint.kind === "webllm") return "webllm";
  return endpoint.baseURL ? providerOf(endpoint.baseURL) : OPENAI_COMPATIBLE;
}

/** What identifies the model a span is about: provider, request model, server. */
export function modelAttributes(endpoint: Endpoint): Attributes {
  const out: Attributes = {
    "gen_ai.provider.name": providerName(endpoint),
  };
  if (endpoint.model) out["gen_ai.request.model"] = endpoint.model;
  const server = endpoint.kind === "webllm" ? null : serverOf(endpoint.baseURL);
  if (server) {
    out["server.address"] = server.address;
    out["server.port"] = server.port;
  }
  return out;
}

/** Messages in the conventions' shape (`gen_ai.input.messages`), as a JSON string. */
function inputMessages(messages: readonly ChatMessage[]): string {
  return JSON.stringify(
    messages.map((m) => ({ role: m.role, parts: [{ type: "text", content: m.content }] })),
  );
}

function outputMessages(output: string, reasoning: string | undefined, finish: string): string {
  const parts = [
    ...(reasoning ? [{ type: "reasoning", content: reasoning }] : []),
    { type: "text", content: output },
  ];
  return JSON.stringify([{ role: "assistant", parts, finish_reason: finish }]);
}

/**
 * The finish reason as far as the record knows it: `stop` for a call that completed, `error` for
 * one that failed. The record does not keep the provider's own reason (such as `length`).
 */
function finishOf(end: CallEnd): string | null {
  if (end.kind === "done") return "stop";
  if (end.kind === "failed") return "error";
  return null;
}

/** Every attribute of a `chat` span. */
export function chatAttributes(call: CallFacts, content: boolean): Attributes {
  const { endpoint, usage } = call;
  const out: Attributes = {
    "gen_ai.operation.name": "chat",
    ...modelAttributes(endpoint),
    "openinference.span.kind": "LLM",
    "llm.provider": providerName(endpoint),
  };
  if (endpoint.model) out["llm.model_name"] = endpoint.model;
  if (endpoint.temperature !== undefined)
    out["gen_ai.request.temperature"] = double(endpoint.temperature);
  if (endpoint.maxTokens !== undefined) out["gen_ai.request.max_tokens"] = endpoint.maxTokens;
  const finish = finishOf(call.end);
  if (finish) {
    out["gen_ai.response.finish_reasons"] = [finish];
    out["llm.finish_reason"] = finish;
  }
  if (call.end.kind === "failed") out["error.type"] = call.end.code;
  if (usage) {
    out["gen_ai.usage.input_tokens"] = usage.promptTokens;
    out["gen_ai.usage.output_tokens"] = usage.completionTokens;
    out["llm.token_count.prompt"] = usage.promptTokens;
    out["llm.token_count.completion"] = usage.completionTokens;
    out["llm.token_count.total"] = usage.promptTokens + usage.completionTokens;
    if (usage.reasoningTokens !== undefined) {
      out["gen_ai.usage.reasoning.output_tokens"] = usage.reasoningTokens;
      out["llm.token_count.completion_details.reasoning"] = usage.reasoningTokens;
    }
    if (usage.estimated) out["conductor.usage.estimated"] = true;
  }
  if (call.cost !== null) {
    out["llm.cost.total"] = double(call.cost);
    out["langfuse.observation.cost_details"] = JSON.stringify({ total: call.cost });
  }
  if (content) Object.assign(out, chatContent(call, finish ?? "error"));
  return out;
}

/** The opt-in contents of a call: its messages in, its answer and reasoning out. */
function chatContent(call: CallFacts, finish: string): Attributes {
  const out: Attributes = {};
  if (call.messages.length) {
    out["gen_ai.input.messages"] = inputMessages(call.messages);
    out["input.value"] = JSON.stringify(call.messages);
    out["input.mime_type"] = "application/json";
    call.messages.forEach((m, i) => {
      out[`llm.input_messages.${i}.message.role`] = m.role;
      out[`llm.input_messages.${i}.message.content`] = m.content;
    });
  }
  if (call.output !== null) {
    out["gen_ai.output.messages"] = outputMessages(call.output, call.reasoning, finish);
    out["output.value"] = call.output;
    out["output.mime_type"] = "text/plain";
    out["llm.output_messages.0.message.role"] = "assistant";
    out["llm.output_messages.0.message.content"] = call.output;
  }
  if (call.reasoning) out["conductor.reasoning"] = call.reasoning;
  return out;
}
