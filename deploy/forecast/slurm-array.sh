#!/usr/bin/env bash
# A fleet forecast split across a Slurm job array: task i of K computes part i/K of the request without a service
# (`bgemu forecast FILE --shard i/K`); a dependent job merges the parts, byte for byte the forecast of K = 1.
#
#   sbatch --array=0-3 deploy/forecast/slurm-array.sh request.json parts/
#   sbatch --dependency=afterok:<array job id> --wrap 'bgemu forecast merge parts/part-*.json --csv parts/devices.csv'
#
#SBATCH --job-name=bgemu-forecast
#SBATCH --cpus-per-task=2
#SBATCH --mem=1G
set -euo pipefail
request="$1"
parts="$2"
mkdir -p "$parts"
count=$(( SLURM_ARRAY_TASK_MAX - SLURM_ARRAY_TASK_MIN + 1 ))
bgemu forecast "$request" --shard "$(( SLURM_ARRAY_TASK_ID - SLURM_ARRAY_TASK_MIN ))/$count" \
  --out "$parts/part-$SLURM_ARRAY_TASK_ID.json"
