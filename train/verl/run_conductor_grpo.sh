#!/usr/bin/env bash
# Launches GRPO for the Conductor on verl with conductor_grpo.yaml, on a Ray cluster (a single
# node starts its own). Needs: verl with vLLM installed, the prompts from `conductor-studio
# prompts` (their .verl.parquet), and the reward service running (`conductor-studio reward`).
#
#   TRAIN=prompts/train.verl.parquet VAL=prompts/val.verl.parquet \
#   CONDUCTOR_REWARD_URL=http://reward-host:8090 bash train/verl/run_conductor_grpo.sh [overrides...]
#
# Extra arguments are Hydra overrides, e.g. trainer.n_gpus_per_node=4 trainer.nnodes=2.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
: "${TRAIN:?set TRAIN to the training prompts (.verl.parquet from conductor-studio prompts)}"
export CONDUCTOR_TRAIN_PARQUET="$TRAIN"
export CONDUCTOR_VAL_PARQUET="${VAL:-$TRAIN}"
export CONDUCTOR_REWARD_PY="$HERE/../conductor_reward.py"
export CONDUCTOR_REWARD_URL="${CONDUCTOR_REWARD_URL:-http://127.0.0.1:8090}"

# Fail before the GPUs spin up when the reward service is not there.
python3 - <<'PY'
import json, os, sys, urllib.request
url = os.environ["CONDUCTOR_REWARD_URL"].rstrip("/") + "/health"
try:
    with urllib.request.urlopen(url, timeout=10) as r:
        print("reward service:", json.loads(r.read().decode()))
except Exception as e:
    sys.exit("Cannot reach the Conductor reward service at %s (%s); start `conductor-studio reward` first." % (url, e))
PY

python3 -m verl.trainer.main_ppo \
  --config-path="$HERE" \
  --config-name=conductor_grpo \
  "$@"
