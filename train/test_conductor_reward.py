"""Tests of the adapters against the real `conductor-studio reward` service (run: npm run test:py).

The service runs on the local test server: worker "Solver" answers "What is N plus one?" right,
"Wrong" answers 0, "Broken" refuses its key (401, not retried).
"""

import json
import os
import socket
import asyncio
import threading
import time
import unittest
import urllib.request

import conductor_reward as cr

URL = os.environ.get("CONDUCTOR_REWARD_URL")
POOL = ["Solver", "Wrong", "Broken"]


def plan(ids, access="[]"):
    subtasks = ", ".join('"Answer the question (model %d)."' % i for i in ids)
    return (
        "Let me work out which models should handle which parts of this question.\n"
        "model_id = [%s]\nsubtasks = [%s]\naccess_list = [%s]"
        % (", ".join(str(i) for i in ids), subtasks, ", ".join(access for _ in ids))
    )


def question(n):
    return 'What is %d plus one?\n\nEnd your reply with a line "Answer: <value>".' % n


def extra(n, pool=None):
    return {"question": question(n), "reference": str(n + 1), "scorer": "math", "pool": pool or POOL, "index": n}


def health():
    with urllib.request.urlopen(URL + "/health", timeout=10) as r:
        return json.loads(r.read().decode("utf-8"))


@unittest.skipUnless(URL, "run through `npm run test:py`, which starts the reward service")
class VerlComputeScore(unittest.TestCase):
    def test_right_wrong_unparseable_outside(self):
        right = cr.compute_score("conductor", plan([0]), "5", extra(4))
        self.assertEqual(right["score"], 1.0)
        self.assertEqual(right["correct"], 1.0)
        self.assertEqual(right["format_ok"], 1.0)
        self.assertEqual(right["calls"], 1)
        self.assertGreater(right["cost"] + right["cached_calls"], 0)
        wrong = cr.compute_score("conductor", plan([1]), "5", extra(4))
        self.assertEqual((wrong["score"], wrong["correct"]), (0.5, 0.0))
        prose = cr.compute_score("conductor", "The answer is 5.", "5", extra(4))
        self.assertEqual((prose["score"], prose["format_ok"], prose["calls"]), (0.0, 0.0, 0))
        outside = cr.compute_score("conductor", plan([0, 3]), "5", extra(4))
        self.assertEqual((outside["score"], outside["format_ok"]), (0.0, 0.0))

    def test_pool_order_from_extra_info(self):
        # The prompt listed [Wrong, Solver]: model id 1 is the Solver. A JSON string works too.
        r = cr.compute_score("conductor", plan([1]), "8", extra(7, ["Wrong", "Solver"]))
        self.assertEqual(r["score"], 1.0)
        info = dict(extra(7), pool=json.dumps(["Wrong", "Solver"]))
        self.assertEqual(cr.compute_score("conductor", plan([0]), "8", info)["score"], 0.5)

    def test_failed_worker_call_raises_never_zero(self):
        with self.assertRaises(cr.ConductorRewardError) as caught:
            cr.compute_score("conductor", plan([0, 2], '["all"]'), "5", extra(4))
        self.assertIn("worker_failed", str(caught.exception))
        self.assertIn("Broken", str(caught.exception))

    def test_batch_is_one_request_in_order(self):
        before = health()["batches_scored"]
        scores = cr.compute_score_batch(
            ["conductor"] * 4,
            [plan([0]), plan([1]), "no plan here", plan([0, 1], '["all"]')],
            ["3", "3", "3", "3"],
            [extra(2)] * 4,
        )
        self.assertEqual([s["score"] for s in scores], [1.0, 0.5, 0.0, 0.5])
        self.assertEqual(health()["batches_scored"], before + 1)

    def test_calls_from_reward_threads_share_requests(self):
        before = health()["batches_scored"]
        results = [None] * 12
        os.environ["CONDUCTOR_REWARD_BATCH_MS"] = "200"
        try:

            def one(i):
                results[i] = cr.compute_score("conductor", plan([i % 2]), str(i + 101), extra(i + 100))

            threads = [threading.Thread(target=one, args=(i,)) for i in range(12)]
            for t in threads:
                t.start()
            for t in threads:
                t.join(60)
        finally:
            del os.environ["CONDUCTOR_REWARD_BATCH_MS"]
        self.assertEqual([r["score"] for r in results], [1.0, 0.5] * 6)
        self.assertLessEqual(health()["batches_scored"] - before, 3)

    def test_a_repeated_batch_is_answered_from_the_cache(self):
        first = cr.compute_score("conductor", plan([0, 1], "[]"), "43", extra(42))
        hits = health()["cache"]["hits"]
        again = cr.compute_score("conductor", plan([0, 1], "[]"), "43", extra(42))
        self.assertEqual(again["score"], first["score"])
        self.assertEqual(again["cached_calls"], again["calls"])
        self.assertEqual(again["cost"], 0.0)
        self.assertEqual(health()["cache"]["hits"], hits + 2)


@unittest.skipUnless(URL, "run through `npm run test:py`, which starts the reward service")
class TrlRewardFunc(unittest.TestCase):
    def columns(self, n):
        return {
            "question": [question(i) for i in range(n)],
            "ground_truth": [str(i + 1) for i in range(n)],
            "scorer": ["math"] * n,
            "pool": [POOL] * n,
            "id": ["q%d" % i for i in range(n)],
            "tests": [None] * n,
        }

    def test_strings_and_conversational_completions(self):
        completions = [plan([0]), [{"role": "assistant", "content": plan([1])}], "nothing", plan([0, 2], '["all"]')]
        logged = {}
        rewards = cr.reward_func(
            completions,
            prompts=[[{"role": "user", "content": "..."}]] * 4,
            trainer_state=object(),
            log_metric=lambda name, value: logged.__setitem__(name, value),
            log_extra=lambda column, values: None,
            **self.columns(4),
        )
        self.assertEqual(rewards, [1.0, 0.5, 0.0, None])
        self.assertEqual(logged["conductor/errors"], 1)
        self.assertGreaterEqual(logged["conductor/worker_calls"], 3)

    def test_question_from_the_prompt_when_there_is_no_column(self):
        prompt = [{"role": "user", "content": "Plan...\nUSER QUESTION:\n%s\nEND OF USER QUESTION\n" % question(9)}]
        columns = self.columns(1)
        del columns["question"]
        columns["ground_truth"] = ["10"]
        self.assertEqual(cr.reward_func([plan([0])], prompts=[prompt], **columns), [1.0])


class Failures(unittest.TestCase):
    def test_unreachable_service_is_a_clear_error(self):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        start = time.monotonic()
        with self.assertRaises(cr.ConductorRewardError) as caught:
            cr.score_items([{"id": "1", "question": "q", "completion": "c"}], url="http://127.0.0.1:%d" % port)
        self.assertIn("Cannot reach the Conductor reward service at http://127.0.0.1:%d" % port, str(caught.exception))
        self.assertLess(time.monotonic() - start, 10)

    def test_a_silent_service_times_out(self):
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        try:
            url = "http://127.0.0.1:%d" % listener.getsockname()[1]
            with self.assertRaises(cr.ConductorRewardError) as caught:
                cr.score_items([{"id": "1", "question": "q", "completion": "c"}], url=url, timeout=0.3)
            self.assertIn("did not answer within", str(caught.exception))
        finally:
            listener.close()

    def test_missing_question_is_refused_before_any_request(self):
        with self.assertRaises(cr.ConductorRewardError):
            cr.compute_score("conductor", plan([0]), "1", {"pool": POOL})

    @unittest.skipUnless(os.environ.get("CONDUCTOR_REWARD_KEYED_URL"), "needs the keyed service")
    def test_the_service_key(self):
        url = os.environ["CONDUCTOR_REWARD_KEYED_URL"]
        item = {"id": "k", "question": question(1), "completion": plan([0]), "reference": "2", "pool": POOL}
        with self.assertRaises(cr.ConductorRewardError) as caught:
            cr.score_items([item], url=url)
        self.assertIn("401", str(caught.exception))
        self.assertIn("invalid_api_key", str(caught.exception))
        ok = cr.score_items([item], url=url, api_key=os.environ["CONDUCTOR_REWARD_TEST_KEY"])
        self.assertEqual(ok[0]["reward"], 1)


if __name__ == "__main__":
    unittest.main()


def health_of(url):
    with urllib.request.urlopen(url + "/health", timeout=10) as r:
        return json.loads(r.read().decode("utf-8"))


@unittest.skipUnless(URL, "run through `npm run test:py`, which starts the reward service")
class AsyncAdapters(unittest.TestCase):
    def test_compute_score_async_is_a_coroutine_verl_awaits(self):
        import inspect

        self.assertTrue(inspect.iscoroutinefunction(cr.compute_score_async))

        async def many():
            return await asyncio.gather(
                *(
                    cr.compute_score_async("conductor", plan([i % 2]), str(i + 301), extra(i + 300), reward_router_address=None)
                    for i in range(6)
                )
            )

        self.assertEqual([r["score"] for r in asyncio.run(many())], [1.0, 0.5] * 3)
        with self.assertRaises(cr.ConductorRewardError) as caught:
            asyncio.run(cr.compute_score_async("conductor", plan([0, 2], '["all"]'), "5", extra(4)))
        self.assertIn("worker_failed", str(caught.exception))

    def test_reward_func_async_sends_each_question_to_its_replica(self):
        replicas = os.environ["CONDUCTOR_REWARD_REPLICAS"].split(",")
        os.environ["CONDUCTOR_REWARD_URLS"] = ",".join(replicas)
        try:
            qs = list(range(500, 512))
            chosen = [cr.replica_for(question(q)) for q in qs]
            # Both replicas are used, and the choice is the question's alone.
            self.assertEqual(set(chosen), set(replicas))
            self.assertEqual(chosen, [cr.replica_for(question(q)) for q in qs])
            before = {u: health_of(u)["items_scored"] for u in replicas}
            # Two rollouts of each question, conversational or not.
            completions = [plan([0]) for _ in qs] + [[{"role": "assistant", "content": plan([1])}] for _ in qs]
            columns = {
                "question": [question(q) for q in qs] * 2,
                "ground_truth": [str(q + 1) for q in qs] * 2,
                "pool": [POOL] * (2 * len(qs)),
            }
            rewards = asyncio.run(cr.reward_func_async(completions, **columns))
            self.assertEqual(rewards, [1.0] * len(qs) + [0.5] * len(qs))
            after = {u: health_of(u)["items_scored"] for u in replicas}
            for u in replicas:
                self.assertEqual(after[u] - before[u], 2 * chosen.count(u))
        finally:
            del os.environ["CONDUCTOR_REWARD_URLS"]

    def test_async_errors_are_clear(self):
        with self.assertRaises(cr.ConductorRewardError) as caught:
            asyncio.run(cr.score_items_async([{"id": "1", "question": "q", "completion": "c"}], url="http://127.0.0.1:9"))
        self.assertIn("Cannot reach", str(caught.exception))
        keyed = os.environ["CONDUCTOR_REWARD_KEYED_URL"]
        with self.assertRaises(cr.ConductorRewardError) as caught:
            asyncio.run(cr.score_items_async([cr._item(0, question(1), plan([0]), "2")], url=keyed, api_key="wrong"))
        self.assertIn("answered 401", str(caught.exception))
        ok = asyncio.run(
            cr.score_items_async(
                [cr._item(0, question(1), plan([0]), "2", pool=POOL)],
                url=keyed,
                api_key=os.environ["CONDUCTOR_REWARD_TEST_KEY"],
            )
        )
        self.assertEqual(ok[0]["reward"], 1)
