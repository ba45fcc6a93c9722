"""GRPO for the Conductor with TRL's GRPOTrainer and vLLM, the paper's hyper-parameters.

KL 0 (beta=0.0), learning rate 1e-6, temperature 1.0, 64 rollouts (num_generations) of each of 4
questions a step, 200 steps, on Qwen2.5-7B-Instruct; the reward is the Conductor reward service
(`conductor-studio reward`) through train/conductor_reward.py. Every GRPOConfig field used here
was checked against trl/trainer/grpo_config.py (see train/README.md, "What was checked").

Launch on one node of 8 GPUs (vLLM colocated with training):

    CONDUCTOR_REWARD_URL=http://127.0.0.1:8090 accelerate launch --num_processes 8 \\
        train/trl/train_conductor_grpo.py --prompts prompts/train.jsonl --output-dir runs/conductor

The batch arithmetic: processes x per_device_train_batch_size x gradient_accumulation_steps
completions per optimizer step = 8 x 8 x 4 = 256 = 4 questions x 64 rollouts; pass
--per-device-batch and --grad-accum so that the product stays 256 on other GPU counts.
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import conductor_reward  # noqa: E402  (the adapter sits one directory up)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--prompts", required=True, help="TRL prompts from `conductor-studio prompts` (JSON lines)")
    parser.add_argument("--output-dir", required=True)
    parser.add_argument("--model", default="Qwen/Qwen2.5-7B-Instruct")
    parser.add_argument("--per-device-batch", type=int, default=8)
    parser.add_argument("--grad-accum", type=int, default=4)
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--vllm-mode", choices=["colocate", "server"], default="colocate")
    args = parser.parse_args()

    from datasets import load_dataset
    from trl import GRPOConfig, GRPOTrainer

    # Columns: prompt (conversational), id, question, ground_truth, scorer, pool, tests,
    # data_source; every column but prompt reaches reward_func as a keyword list.
    dataset = load_dataset("json", data_files=args.prompts, split="train")
    config = GRPOConfig(
        output_dir=args.output_dir,
        learning_rate=1e-6,
        beta=0.0,
        temperature=1.0,
        num_generations=64,
        per_device_train_batch_size=args.per_device_batch,
        gradient_accumulation_steps=args.grad_accum,
        max_completion_length=1024,
        max_steps=args.steps,
        use_vllm=True,
        vllm_mode=args.vllm_mode,
        vllm_gpu_memory_utilization=0.3,
        bf16=True,
        gradient_checkpointing=True,
        logging_steps=1,
        save_steps=50,
        log_completions=True,
        report_to="none",
    )
    trainer = GRPOTrainer(
        model=args.model,
        reward_funcs=conductor_reward.reward_func,
        args=config,
        train_dataset=dataset,
    )
    trainer.train()
    # Hugging Face weights, ready for MLC (docs/conductor-weights.md).
    trainer.save_model(os.path.join(args.output_dir, "final"))


if __name__ == "__main__":
    main()
