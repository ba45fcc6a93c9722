"""Conductor rewards for RL trainers, from the `conductor-studio reward` service.

Standard library only, so this file drops into any trainer's environment (copy it, or put
train/ on PYTHONPATH). Two entry points:

* verl: ``compute_score(data_source, solution_str, ground_truth, extra_info=None, **kwargs)``
  (custom_reward_function.name=compute_score), returning a dict with ``score`` and the breakdown;
  ``compute_score_batch(data_sources, solution_strs, ground_truths, extra_infos, **kwargs)`` for
  verl's ``batch`` reward manager. Calls that arrive together from verl's reward threads are sent
  as one request.
* TRL: ``reward_func(completions, **kwargs)`` for ``GRPOTrainer(reward_funcs=[reward_func])``:
  completions as strings or conversational message lists, dataset columns (question,
  ground_truth, scorer, pool, tests, id) as keyword lists; one request per call; ``None`` for an
  item the service could not score (TRL leaves such a completion out of the advantage baseline).

Async, for trainers that await their reward (verl's Reward Loop, ``reward_model.use_reward_loop=True``,
awaits an ``async def``; TRL awaits async reward functions): ``compute_score_async`` and
``reward_func_async``, on asyncio streams (one HTTP/1.1 connection per request). With
CONDUCTOR_REWARD_URLS (comma-separated), each item goes to the replica its question's hash picks,
so every rollout of one question reaches the same replica (and its cache).

Settings come from the environment: CONDUCTOR_REWARD_URL (default http://127.0.0.1:8090),
CONDUCTOR_REWARD_KEY (the service's key, sent as a Bearer token), CONDUCTOR_REWARD_TIMEOUT
(seconds for one request, default 1800: a batch runs every plan's workflow) and
CONDUCTOR_REWARD_BATCH_MS (how long verl's per-sample calls wait to share a request, default 20).

A failed worker call is never a silent 0: verl's entry points raise ConductorRewardError, TRL's
returns None for that completion. An unreachable service or a time-out raises ConductorRewardError.
"""

import asyncio
import hashlib
import json
import os
import socket
import ssl
import threading
import urllib.error
import urllib.parse
import urllib.request

__all__ = [
    "ConductorRewardError",
    "compute_score",
    "compute_score_async",
    "compute_score_batch",
    "replica_for",
    "reward_func_async",
    "score_items_async",
    "reward_func",
    "score_items",
]

DEFAULT_URL = "http://127.0.0.1:8090"


class ConductorRewardError(RuntimeError):
    """The reward service could not be reached, refused the request, or could not score an item."""


def _settings(url=None, timeout=None, api_key=None):
    url = (url or os.environ.get("CONDUCTOR_REWARD_URL") or DEFAULT_URL).rstrip("/")
    if url.endswith("/v1/rewards"):
        url = url[: -len("/v1/rewards")]
    timeout = float(timeout if timeout is not None else os.environ.get("CONDUCTOR_REWARD_TIMEOUT", "1800"))
    api_key = api_key if api_key is not None else os.environ.get("CONDUCTOR_REWARD_KEY")
    return url, timeout, api_key


def _error_text(body):
    try:
        error = json.loads(body).get("error", {})
        return "%s: %s" % (error.get("code", "error"), error.get("message", body))
    except (ValueError, AttributeError):
        return body[:500]


def score_items(items, url=None, timeout=None, api_key=None, format_bonus=None):
    """POSTs ``items`` to /v1/rewards as one request; returns the service's rewards, in order."""
    url, timeout, api_key = _settings(url, timeout, api_key)
    payload = {"items": items}
    if format_bonus is not None:
        payload["format_bonus"] = format_bonus
    headers = {"Content-Type": "application/json"}
    if api_key:
        headers["Authorization"] = "Bearer " + api_key
    request = urllib.request.Request(
        url + "/v1/rewards", data=json.dumps(payload).encode("utf-8"), headers=headers, method="POST"
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            body = json.loads(response.read().decode("utf-8"))
    except urllib.error.HTTPError as e:
        text = e.read().decode("utf-8", "replace")
        raise ConductorRewardError(
            "The Conductor reward service at %s answered %d (%s)." % (url, e.code, _error_text(text))
        ) from None
    except (socket.timeout, TimeoutError):
        raise ConductorRewardError(
            "The Conductor reward service at %s did not answer within %.0f s; raise "
            "CONDUCTOR_REWARD_TIMEOUT or send smaller batches." % (url, timeout)
        ) from None
    except (urllib.error.URLError, ConnectionError, OSError) as e:
        reason = getattr(e, "reason", e)
        raise ConductorRewardError(
            "Cannot reach the Conductor reward service at %s (%s). Start it with "
            "`npx conductor-studio reward --config pool.json` and set CONDUCTOR_REWARD_URL." % (url, reason)
        ) from None
    rewards = body.get("rewards") if isinstance(body, dict) else None
    if not isinstance(rewards, list) or len(rewards) != len(items):
        raise ConductorRewardError("The reward service at %s sent an unexpected answer." % url)
    return rewards


def _listish(value):
    """A pool as verl or TRL hand it over: a list, a tuple, a numpy array or a JSON string."""
    if value is None:
        return None
    if hasattr(value, "tolist"):
        value = value.tolist()
    if isinstance(value, str):
        value = json.loads(value)
    return [str(v) for v in value]


def _question_from(prompt):
    """The question between the prompt's USER QUESTION markers, when no question column exists."""
    if isinstance(prompt, list):
        prompt = "\n".join(m.get("content", "") for m in prompt if isinstance(m, dict))
    if not isinstance(prompt, str) or "USER QUESTION:\n" not in prompt:
        return None
    return prompt.split("USER QUESTION:\n", 1)[1].split("\nEND OF USER QUESTION", 1)[0]


def _completion_text(completion):
    """A completion as a string: TRL's conversational completions are lists of messages."""
    if isinstance(completion, str):
        return completion
    if isinstance(completion, dict):
        return str(completion.get("content", ""))
    return "".join(
        str(m.get("content", "")) for m in completion if isinstance(m, dict) and m.get("role", "assistant") == "assistant"
    )


def _item(index, question, completion, reference, scorer=None, pool=None, tests=None, item_id=None):
    if not question:
        raise ConductorRewardError(
            "Item %s has no question: pass the question column (conductor-studio prompts writes it)." % index
        )
    item = {
        "id": str(item_id if item_id is not None else index),
        "question": question,
        "completion": _completion_text(completion),
        "reference": None if reference is None else str(reference),
    }
    if scorer:
        item["scorer"] = str(scorer)
    pool = _listish(pool)
    if pool:
        item["pool"] = pool
    if tests not in (None, ""):
        item["tests"] = json.loads(tests) if isinstance(tests, str) else tests
    return item


def _breakdown(reward):
    """verl's dict: ``score`` plus numeric parts (verl logs each key as a metric)."""
    return {
        "score": float(reward["reward"]),
        "correct": 1.0 if reward.get("correct") else 0.0,
        "format_ok": 1.0 if reward.get("format_ok") else 0.0,
        "cost": float(reward.get("cost") or 0.0),
        "calls": int(reward.get("calls") or 0),
        "cached_calls": int(reward.get("cached_calls") or 0),
    }


def _checked(reward):
    if reward.get("reward") is None:
        error = reward.get("error") or {}
        raise ConductorRewardError(
            "Item %s could not be scored (%s): %s"
            % (reward.get("id"), error.get("code", "error"), error.get("message", "no reward"))
        )
    return _breakdown(reward)


def _verl_item(index, solution_str, ground_truth, extra_info):
    info = dict(extra_info or {})
    return _item(
        index,
        info.get("question"),
        solution_str,
        info.get("reference", ground_truth) if ground_truth in (None, "") else ground_truth,
        info.get("scorer"),
        info.get("pool"),
        info.get("tests"),
        info.get("id", info.get("index")),
    )


class _Coalescer:
    """Gathers calls from several threads for a short window and sends them as one request."""

    def __init__(self):
        self._lock = threading.Lock()
        self._pending = []
        self._leader = False

    def submit(self, item, window_s, max_items=1024):
        slot = {"item": item, "done": threading.Event(), "result": None, "error": None}
        with self._lock:
            self._pending.append(slot)
            lead = not self._leader
            if lead:
                self._leader = True
        if lead:
            self._lead(window_s, max_items)
        slot["done"].wait()
        if slot["error"] is not None:
            raise slot["error"]
        return slot["result"]

    def _lead(self, window_s, max_items):
        """Waits the window, sends what gathered; leftovers past `max_items` get a leader of their own."""
        threading.Event().wait(window_s)
        with self._lock:
            batch, self._pending = self._pending[:max_items], self._pending[max_items:]
            more = bool(self._pending)
            self._leader = more
        if more:
            threading.Thread(target=self._lead, args=(window_s, max_items), daemon=True).start()
        self._send(batch)

    @staticmethod
    def _send(batch):
        try:
            items = [dict(s["item"], id="%d:%s" % (i, s["item"]["id"])) for i, s in enumerate(batch)]
            rewards = score_items(items)
            for s, r in zip(batch, rewards):
                s["result"] = r
        except ConductorRewardError as e:
            for s in batch:
                s["error"] = e
        finally:
            for s in batch:
                s["done"].set()


_coalescer = _Coalescer()


def compute_score(data_source, solution_str, ground_truth, extra_info=None, **kwargs):
    """verl's custom reward function: the reward of one sampled plan, with its breakdown."""
    del data_source, kwargs
    window = float(os.environ.get("CONDUCTOR_REWARD_BATCH_MS", "20")) / 1000.0
    reward = _coalescer.submit(_verl_item(0, solution_str, ground_truth, extra_info), window)
    return _checked(reward)


def compute_score_batch(data_sources, solution_strs, ground_truths, extra_infos, **kwargs):
    """verl's ``batch`` reward manager: every sample of the step in one request."""
    del data_sources, kwargs
    items = [
        _verl_item(i, s, g, e) for i, (s, g, e) in enumerate(zip(solution_strs, ground_truths, extra_infos))
    ]
    return [_checked(r) for r in score_items(items)]


def _column(kwargs, name, n):
    value = kwargs.get(name)
    return list(value) if value is not None else [None] * n


def reward_func(completions, prompts=None, **kwargs):
    """TRL's reward function: one reward per completion (None where the service could not score)."""
    n = len(completions)
    questions = _column(kwargs, "question", n)
    prompts = list(prompts) if prompts is not None else [None] * n
    references = kwargs.get("ground_truth", kwargs.get("reference", kwargs.get("answer")))
    references = list(references) if references is not None else [None] * n
    scorers, pools, tests, ids = (_column(kwargs, c, n) for c in ("scorer", "pool", "tests", "id"))
    items = [
        _item(i, questions[i] or _question_from(prompts[i]), completions[i], references[i], scorers[i], pools[i], tests[i], None)
        for i in range(n)
    ]
    for i, item in enumerate(items):
        item["id"] = "%d:%s" % (i, ids[i] if ids[i] is not None else i)
    rewards = score_items(items)
    log_metric = kwargs.get("log_metric")
    if callable(log_metric):
        log_metric("conductor/cost", sum(float(r.get("cost") or 0) for r in rewards))
        log_metric("conductor/worker_calls", sum(int(r.get("calls") or 0) for r in rewards))
        log_metric("conductor/cached_calls", sum(int(r.get("cached_calls") or 0) for r in rewards))
        log_metric("conductor/errors", sum(1 for r in rewards if r.get("reward") is None))
        log_metric("conductor/format_ok", sum(1.0 for r in rewards if r.get("format_ok")) / max(1, n))
    return [None if r.get("reward") is None else float(r["reward"]) for r in rewards]


# --- async: verl's Reward Loop and TRL's async reward functions ---------------------------------


def _replicas():
    urls = [u.strip() for u in os.environ.get("CONDUCTOR_REWARD_URLS", "").split(",") if u.strip()]
    return urls or [_settings()[0]]


def replica_for(question, urls=None):
    """The reward URL a question goes to: SHA-256 of the question, mod the number of replicas.

    Every rollout of one question reaches the same replica, whose cache and in-flight dedup
    answer the subtasks they share; the same rule as a load balancer hashing on the question.
    """
    urls = list(urls) if urls is not None else _replicas()
    digest = hashlib.sha256((question or "").encode("utf-8")).digest()
    return urls[int.from_bytes(digest[:8], "big") % len(urls)]


async def _read_body(reader, headers):
    if headers.get("transfer-encoding", "").lower() == "chunked":
        chunks = []
        while True:
            size = int((await reader.readline()).split(b";")[0].strip() or b"0", 16)
            if size == 0:
                await reader.readline()
                return b"".join(chunks)
            chunks.append(await reader.readexactly(size))
            await reader.readexactly(2)
    if "content-length" in headers:
        return await reader.readexactly(int(headers["content-length"]))
    return await reader.read()


async def _post(url, payload, api_key):
    """POST JSON to `url` over one HTTP/1.1 connection; returns (status, body bytes)."""
    parts = urllib.parse.urlsplit(url)
    secure = parts.scheme == "https"
    port = parts.port or (443 if secure else 80)
    reader, writer = await asyncio.open_connection(
        parts.hostname, port, ssl=ssl.create_default_context() if secure else None
    )
    try:
        body = json.dumps(payload).encode("utf-8")
        head = [
            "POST %s HTTP/1.1" % (parts.path or "/"),
            "Host: %s" % parts.netloc,
            "Content-Type: application/json",
            "Content-Length: %d" % len(body),
            "Connection: close",
        ]
        if api_key:
            head.append("Authorization: Bearer " + api_key)
        writer.write(("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + body)
        await writer.drain()
        status_line = await reader.readline()
        if not status_line:
            raise ConnectionError("the connection closed before an answer")
        status = int(status_line.split()[1])
        headers = {}
        while True:
            line = await reader.readline()
            if line in (b"\r\n", b"\n", b""):
                break
            name, _, value = line.decode("latin-1").partition(":")
            headers[name.strip().lower()] = value.strip()
        return status, await _read_body(reader, headers)
    finally:
        writer.close()


async def score_items_async(items, url=None, timeout=None, api_key=None, format_bonus=None):
    """``score_items`` awaited: POSTs ``items`` to one service as one request; rewards in order."""
    url, timeout, api_key = _settings(url, timeout, api_key)
    payload = {"items": items}
    if format_bonus is not None:
        payload["format_bonus"] = format_bonus
    try:
        status, raw = await asyncio.wait_for(_post(url + "/v1/rewards", payload, api_key), timeout)
    except asyncio.TimeoutError:
        raise ConductorRewardError(
            "The Conductor reward service at %s did not answer within %.0f s; raise "
            "CONDUCTOR_REWARD_TIMEOUT or send smaller batches." % (url, timeout)
        ) from None
    except (ConnectionError, OSError, ValueError, IndexError, asyncio.IncompleteReadError) as e:
        raise ConductorRewardError(
            "Cannot reach the Conductor reward service at %s (%s). Start it with "
            "`npx conductor-studio reward --config pool.json` and set CONDUCTOR_REWARD_URL(S)." % (url, e)
        ) from None
    text = raw.decode("utf-8", "replace")
    if status != 200:
        raise ConductorRewardError(
            "The Conductor reward service at %s answered %d (%s)." % (url, status, _error_text(text))
        )
    try:
        body = json.loads(text)
    except ValueError:
        body = None
    rewards = body.get("rewards") if isinstance(body, dict) else None
    if not isinstance(rewards, list) or len(rewards) != len(items):
        raise ConductorRewardError("The reward service at %s sent an unexpected answer." % url)
    return rewards


async def compute_score_async(data_source, solution_str, ground_truth, extra_info=None, **kwargs):
    """verl's Reward Loop (``async def``, awaited per sample): one plan's reward and breakdown.

    verl passes extra keywords (reward_router_address, reward_model_tokenizer); they are ignored.
    """
    del data_source, kwargs
    item = _verl_item(0, solution_str, ground_truth, extra_info)
    rewards = await score_items_async([item], url=replica_for(item["question"]))
    return _checked(rewards[0])


async def reward_func_async(completions, prompts=None, **kwargs):
    """TRL's reward function, awaited: as ``reward_func``, each question's items to its replica."""
    n = len(completions)
    questions = _column(kwargs, "question", n)
    prompts = list(prompts) if prompts is not None else [None] * n
    references = kwargs.get("ground_truth", kwargs.get("reference", kwargs.get("answer")))
    references = list(references) if references is not None else [None] * n
    scorers, pools, tests, ids = (_column(kwargs, c, n) for c in ("scorer", "pool", "tests", "id"))
    items = [
        _item(i, questions[i] or _question_from(prompts[i]), completions[i], references[i], scorers[i], pools[i], tests[i], None)
        for i in range(n)
    ]
    groups = {}
    for i, item in enumerate(items):
        item["id"] = "%d:%s" % (i, ids[i] if ids[i] is not None else i)
        groups.setdefault(replica_for(item["question"]), []).append(i)
    answers = await asyncio.gather(
        *(score_items_async([items[i] for i in where], url=url) for url, where in groups.items())
    )
    rewards = [None] * n
    for where, got in zip(groups.values(), answers):
        for i, r in zip(where, got):
            rewards[i] = r
    return [None if r.get("reward") is None else float(r["reward"]) for r in rewards]
