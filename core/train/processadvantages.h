#pragma once

// ProRAG's dual-granularity advantages (§3.4, eq. 5–8), without libtorch:
//   r_step(i, t) = s(R_φ(c_{i,t}, s_{i,t})) + ν1 · I_step(s_{i,t})        eq. 5
//   A_proc(i, t) = (r_step(i, t) − μ_{b,t}) / (σ_{b,t} + ε)               eq. 7
//   A(i, t, k)   = A_out(i) + β · A_proc(i, t)                            eq. 8
// s is the PRM's score as a probability, σ(R) (the paper's "probability score"), or the
// raw R. μ_{b,t} and σ_{b,t} are the mean and the standard deviation (Bessel-corrected,
// as GRPO's outcome advantages) of the step rewards of the rows of group b that have a
// t-th step: the group is normalised per step position (issue 14). A step position only
// one row of its group reaches has σ 0 and r − μ = 0: no process advantage. A_proc(i, t)
// goes to every token of step t (the retrieved tokens among them are masked by the loss).
// A row's steps are its tokens cut after every `</subanswer>` token (the last step, the
// answer, ends with the row), each piece decoded for the PRM: the steps scored are the
// tokens the advantages go to. A_out is GRPO's group-relative advantage of the outcome
// reward (the reward config). docs/grpo.md, "Process rewards".

#include <cstdint>
#include <string_view>
#include <vector>

namespace rwb::train {

// Eq. 5.
double stepReward(double prmScore, bool formatOk, bool sigmoid, double formatBonus);

// Eq. 7 per step position: stepRewards[i] holds row i's step rewards (rows in groups of
// `groupSize`, contiguous). With `scale` false, A_proc = r − μ (no division).
std::vector<std::vector<double>> processAdvantages(const std::vector<std::vector<double>> &stepRewards, int groupSize,
                                                   bool scale = true, double eps = 1e-4);

// The step of each token: 0 until the first `stepEnd` token (included), 1 until the next, …
std::vector<int> tokenSteps(const std::vector<int32_t> &tokens, int32_t stepEnd);

// Eq. 8 for one row: A_out + β · A_proc[step of the token]; a token past the last step
// with a process advantage gets A_out alone.
std::vector<double> tokenAdvantages(double outcome, const std::vector<double> &process, const std::vector<int> &steps,
                                    double beta);

} // namespace rwb::train
