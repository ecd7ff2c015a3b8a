#!/usr/bin/env bash
# One command per paper: its headline comparisons at reduced scale on this machine, with
# paired bootstrap intervals and the power each comparison was planned for (written down
# before running, in the plan the command prints first and keeps beside its results).
#   scripts/reproduce.sh PAPER [--part P] [--smoke] [--plan]
#     PAPER    000  the first paper (GRPO reward design for company-name extraction):
#                   table 2's SFT vs SFT → SFT vs SFT → GRPO, three seeds, and table 1's
#                   ten reward presets, three seeds each, on e-mails SFT never saw
#              001  Rubrics as Rewards: rubric against Likert judges ordering answers to
#                   legal questions by the reference grader's truth (judges), why the rating
#                   judges did not learn to rate (diagnosis), the comparison again with
#                   targets that write the points first (points), and GRPO with each
#                   method's reward from that judge, policies scored by the truth (policy)
#              002  the legal-QA paper: GRPO with the citation rewards with and without the
#                   semantic answer reward from a start with room, three seeds (grpo); the
#                   judge's cost in CPU-seconds per step with and without reuse (cost); the
#                   judge against semantic where lexical overlap and truth part (ood)
#              003  the fourth paper (ProRAG): its PRM, trained on pairs made at scale from
#                   gold chains and measured on another knowledge base's (prm), and the
#                   β grid of table 3 with an oracle step reward and with that PRM (beta)
#     --part   000: table2, table1 or thinking (default: all three, in that order;
#              a single part reuses the data and SFT start a previous run left); 001: judges,
#              then diagnosis or points, then policy after points (judges reuses a judge a
#              previous run left);
#              002: grpo, then cost or ood; 003: prm, then beta
#     --smoke  tiny sizes (a couple of minutes): checks that the pipeline runs, measures nothing
#     --plan   print the plan (sizes, seeds, the effect each comparison can detect) and stop
# RWB_REPRODUCE_OUT: where everything goes (default build/reproduce/PAPER; replaced).
# The tables go to the terminal and to OUT/results-PART.md (PART: all or the --part);
# docs/results.md quotes them.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
usage() { echo "usage: scripts/reproduce.sh 000|001|002|003 [--part P] [--smoke] [--plan]" >&2; exit 2; }
[[ $# -ge 1 ]] || usage
paper=$1; shift
part=all; smoke=0; plan_only=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --part) [[ $# -ge 2 ]] || usage; part=$2; shift ;;
    --smoke) smoke=1 ;;
    --plan) plan_only=1 ;;
    *) usage ;;
  esac
  shift
done
case "$paper" in
  000|001|002|003) ;;
  *) echo "scripts/reproduce.sh: no paper \"$paper\" (000, 001, 002 and 003 are; see docs/results.md, \"What reproduced\")" >&2; exit 2 ;;
esac
export RWB_REPRODUCE_ROOT=$root RWB_REPRODUCE_PART=$part RWB_REPRODUCE_SMOKE=$smoke RWB_REPRODUCE_PLAN=$plan_only
export RWB_REPRODUCE_OUT=${RWB_REPRODUCE_OUT:-$root/build/reproduce/$paper}
if [[ $plan_only == 0 ]]; then
  "$root/scripts/setup.sh"
  "$root/scripts/build.sh"
fi
exec "$root/scripts/reproduce/$paper.sh"
