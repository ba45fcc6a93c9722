#!/usr/bin/env python3
"""Writes a tiny llama-architecture GGUF for tests: real llama.cpp inference, no download.

Usage: python3 scripts/make-tiny-gguf.py OUT.gguf   (python3 standard library only; deterministic)

The format (GGUF v3, as llama.cpp's gguf-py/gguf/gguf_writer.py writes it; all little-endian):
  header   "GGUF", u32 version = 3, u64 tensor count, u64 key/value count
  kv       string key (u64 length + UTF-8 bytes), u32 value type, value
           types: 4 u32, 5 i32, 6 f32, 8 string, 9 array (u32 element type, u64 count, elements)
  tensors  string name, u32 n_dims, u64 dims (innermost first), u32 ggml type (0 = F32),
           u64 offset into the data section (a multiple of the alignment)
  padding  to general.alignment (32), then the tensor data, each tensor padded to 32 bytes

What llama.cpp needs for `general.architecture = llama` (src/llama-arch.cpp, llama-model.cpp):
  llama.context_length, llama.embedding_length, llama.block_count, llama.feed_forward_length,
  llama.attention.head_count, llama.attention.head_count_kv,
  llama.attention.layer_norm_rms_epsilon, and the tensors token_embd, output_norm, output and per
  block blk.N.{attn_norm, attn_q, attn_k, attn_v, attn_output, ffn_norm, ffn_gate, ffn_up, ffn_down}.
  The vocabulary is SentencePiece-style (tokenizer.ggml.model = llama): <unk>, <s>, </s>, the 256
  byte-fallback tokens <0x00>..<0xFF> (type 6), so any text can be spelled, and one piece per
  printable ASCII character ("\u2581" is the space) and two longer pieces, with scores and types.
  tokenizer.chat_template is ChatML, which the engine formats the Conductor's messages with.

The weights are random (seeded) and small, except for one direction: every token embedding carries
a constant in dimension 0, the blocks write little to the residual stream, and the output matrix
reads dimension 0 as a per-token bias that favours closing characters (newline, quote, bracket,
end of sequence). Under the plan grammar the model therefore writes short plans in few tokens,
which keeps the tests fast; it is still real decoding with real tokens.
"""

import math
import random
import struct
import sys

N_EMBD = 64
N_HEAD = 4
N_LAYER = 2
N_FF = 128
N_CTX = 8192
SEED = 39
ALIGN = 32

CHATML = (
    "{% for message in messages %}"
    "{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n' }}"
    "{% endfor %}"
    "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}"
)

# Token types (llama.cpp's llama_token_type): 1 normal, 2 unknown, 3 control, 6 byte.
NORMAL, UNKNOWN, CONTROL, BYTE = 1, 2, 3, 6


def vocabulary():
    tokens = [("<unk>", UNKNOWN), ("<s>", CONTROL), ("</s>", CONTROL)]
    tokens += [(f"<0x{b:02X}>", BYTE) for b in range(256)]
    tokens.append(("\u2581", NORMAL))
    tokens += [(chr(c), NORMAL) for c in range(0x21, 0x7F)]
    tokens += [(piece.replace(" ", "\u2581"), NORMAL) for piece in PIECES]
    # Common words, each with every prefix (SentencePiece merges pairs, so "\u2581the" needs
    # "\u2581t" and "\u2581th"): prompts then take about a word a token, not a character.
    seen = {t for t, _ in tokens}
    for word in WORDS.split():
        for text in (word, "\u2581" + word):
            for end in range(2, len(text) + 1):
                if text[:end] not in seen:
                    seen.add(text[:end])
                    tokens.append((text[:end], NORMAL))
    return tokens


WORDS = """
the a an and or of to in on for with by from as at is are be it its that this these those which
what who how when each every one two three first last later earlier step steps model models
question questions answer answers subtask subtasks access list lists user work team final
language plan planning reasoning check checks solve solves correct independent attempt attempts
example examples available worker workers should would must may can not no all only more than
most their they them you your we our his her do does run runs give gives given number numbers
integer ids id id's string entry entries per form three Python receives shown sees response
responses complete name names order listed instruction instructions placeholders choose end
write exactly equal length quoted holds index indices none such as before after into problem
parts part facts approach settle settles compare compares count counts counting
"""


# Two longer pieces: the plan's first line (so the free-text reasoning ends at once) and a subtask.
PIECES = ["\nmodel_id = [", "Answer the question."]

# The bias the output matrix gives a token (see the module comment), in units of BIAS_SCALE: the
# plan's first line, then closers; gaps wide enough that sampling at any usual temperature agrees.
PREFERRED = {
    "</s>": 9.0,
    "\nmodel_id\u2581=\u2581[": 8.5,
    "<0x0A>": 8.0,
    '"': 7.5,
    "Answer\u2581the\u2581question.": 7.2,
    "x": 7.0,
    "]": 6.5,
    "0": 4.0,
}
BIAS_SCALE = 3.0


class Writer:
    def __init__(self):
        self.kv = []
        self.tensors = []

    def add(self, key, vtype, payload):
        self.kv.append(string(key) + struct.pack("<I", vtype) + payload)

    def u32(self, key, v):
        self.add(key, 4, struct.pack("<I", v))

    def f32(self, key, v):
        self.add(key, 6, struct.pack("<f", v))

    def str(self, key, v):
        self.add(key, 8, string(v))

    def arr(self, key, etype, items):
        self.add(key, 9, struct.pack("<IQ", etype, len(items)) + b"".join(items))

    def tensor(self, name, dims, values):
        self.tensors.append((name, dims, struct.pack(f"<{len(values)}f", *values)))

    def bytes(self):
        head = b"GGUF" + struct.pack("<IQQ", 3, len(self.tensors), len(self.kv))
        infos, data = b"", b""
        for name, dims, raw in self.tensors:
            infos += string(name) + struct.pack("<I", len(dims))
            infos += b"".join(struct.pack("<Q", d) for d in dims)
            infos += struct.pack("<IQ", 0, len(data))
            data += raw + b"\0" * (-len(raw) % ALIGN)
        body = head + b"".join(self.kv) + infos
        return body + b"\0" * (-len(body) % ALIGN) + data


def string(s):
    raw = s.encode("utf-8")
    return struct.pack("<Q", len(raw)) + raw


def main(out):
    rng = random.Random(SEED)
    tokens = vocabulary()
    n_vocab = len(tokens)
    w = Writer()
    w.str("general.architecture", "llama")
    w.str("general.name", "conductor-studio tiny test model")
    w.u32("general.alignment", ALIGN)
    w.u32("llama.context_length", N_CTX)
    w.u32("llama.embedding_length", N_EMBD)
    w.u32("llama.block_count", N_LAYER)
    w.u32("llama.feed_forward_length", N_FF)
    w.u32("llama.attention.head_count", N_HEAD)
    w.u32("llama.attention.head_count_kv", N_HEAD)
    w.u32("llama.rope.dimension_count", N_EMBD // N_HEAD)
    w.f32("llama.attention.layer_norm_rms_epsilon", 1e-5)
    w.u32("llama.vocab_size", n_vocab)
    w.str("tokenizer.ggml.model", "llama")
    w.arr("tokenizer.ggml.tokens", 8, [string(t) for t, _ in tokens])
    w.arr("tokenizer.ggml.scores", 6, [struct.pack("<f", -float(i)) for i in range(n_vocab)])
    w.arr("tokenizer.ggml.token_type", 5, [struct.pack("<i", k) for _, k in tokens])
    w.u32("tokenizer.ggml.unknown_token_id", 0)
    w.u32("tokenizer.ggml.bos_token_id", 1)
    w.u32("tokenizer.ggml.eos_token_id", 2)
    w.str("tokenizer.chat_template", CHATML)

    def noise(n, scale):
        return [rng.gauss(0.0, scale) for _ in range(n)]

    # token_embd: [n_embd, n_vocab]; dimension 0 is the constant the output reads as a bias.
    embd = []
    for _ in range(n_vocab):
        row = noise(N_EMBD, 0.02)
        row[0] = 1.0
        embd += row
    w.tensor("token_embd.weight", [N_EMBD, n_vocab], embd)
    w.tensor("output_norm.weight", [N_EMBD], [1.0] * N_EMBD)
    out_rows = []
    for text, _ in tokens:
        row = noise(N_EMBD, 0.02)
        row[0] = BIAS_SCALE * PREFERRED.get(text, 0.0)
        out_rows += row
    w.tensor("output.weight", [N_EMBD, n_vocab], out_rows)
    small = 0.02 / math.sqrt(N_EMBD)
    for i in range(N_LAYER):
        p = f"blk.{i}."
        w.tensor(p + "attn_norm.weight", [N_EMBD], [1.0] * N_EMBD)
        for name in ("attn_q", "attn_k", "attn_v", "attn_output"):
            w.tensor(p + name + ".weight", [N_EMBD, N_EMBD], noise(N_EMBD * N_EMBD, small))
        w.tensor(p + "ffn_norm.weight", [N_EMBD], [1.0] * N_EMBD)
        w.tensor(p + "ffn_gate.weight", [N_EMBD, N_FF], noise(N_EMBD * N_FF, small))
        w.tensor(p + "ffn_up.weight", [N_EMBD, N_FF], noise(N_EMBD * N_FF, small))
        w.tensor(p + "ffn_down.weight", [N_FF, N_EMBD], noise(N_FF * N_EMBD, small))
    with open(out, "wb") as f:
        f.write(w.bytes())


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: make-tiny-gguf.py OUT.gguf")
    main(sys.argv[1])
