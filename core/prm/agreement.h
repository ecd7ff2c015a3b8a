#pragma once

// How far the labels of preference pairs agree: per pair, between two raters (Cohen's κ),
// and among any number with missing labels (Krippendorff's α, nominal). A rater is one
// source and annotator: "tree", "judge: <model>", "human: <name>". Skips label nothing and
// are left out everywhere; A, B and Tie are the three categories. docs/prm.md, "Agreement".

#include "prm/preference.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace rwb::prm {

// "tree", "judge: <annotator>", "human: <annotator>", "import: <annotator>".
std::string raterName(const Label &label);

// Two raters on the pairs both labelled (A, B or Tie).
struct PairwiseAgreement {
    size_t n = 0;          // pairs both labelled
    size_t agree = 0;      // … with the same label
    double observed = NAN; // p_o = agree / n; NaN when n = 0
    // Cohen's κ = (p_o − p_e) / (1 − p_e), p_e = Σ_c p₁(c)·p₂(c) from each rater's own
    // label shares on these n pairs. NaN when n = 0 or p_e = 1 (both gave one label
    // throughout: chance explains everything, κ is undefined).
    double kappa = NAN;
};
PairwiseAgreement pairwiseAgreement(const std::map<int64_t, Choice> &first, const std::map<int64_t, Choice> &second);

// Krippendorff's α for nominal labels: `units` holds each pair's labels (one per rater;
// skips left out). Units with fewer than two labels are not pairable and are dropped.
// α = 1 − (n − 1) · Σ_{c≠k} o_ck / Σ_{c≠k} n_c·n_k, with the coincidences o_ck counting
// each ordered pair of labels of one unit 1 / (m_u − 1) times (Krippendorff 2011,
// "Computing Krippendorff's alpha-reliability"). NaN when no unit is pairable or every
// pairable label is the same category (no expected disagreement).
double krippendorffAlpha(const std::vector<std::vector<Choice>> &units);

// Where one pair stands: its labels (skips left out), the most frequent one and whether
// any two disagree.
struct PairConsensus {
    int labels = 0;
    bool disagreement = false;
    Choice majority = Choice::Skip; // Skip when unlabelled or a tie for the most frequent
};
PairConsensus pairConsensus(const std::vector<Label> &labelsOfPair);

// The raters of a set of labels and their agreement with one another: the matrix the
// annotation view shows. With two or more human annotators a pseudo-rater "humans
// (majority)" joins (per pair, the human labels' majority; none where they tie), so the
// judge and the tree can be set against the people as one.
struct AgreementTable {
    std::vector<std::string> raters;                     // "tree" and "judge: …" first, then the people, sorted
    std::map<std::string, std::map<int64_t, Choice>> labels; // rater → pair → label
    std::vector<std::vector<PairwiseAgreement>> matrix;  // [i][j] for raters i, j (the diagonal: with itself)
    double alphaHumans = NAN;  // Krippendorff's α among the people (NaN with fewer than two)
    size_t humanUnits = 0;     // pairs labelled by two or more people
    double alphaAll = NAN;     // … among every rater (the majority pseudo-rater left out)
    size_t allUnits = 0;
};
inline constexpr const char *kHumanMajority = "humans (majority)";
AgreementTable agreementTable(const std::vector<Label> &labels);

// The one label each pair trains with or is exported with: from the first source in
// `priority` that labelled it (A, B or Tie; skips do not count). Several people: their
// majority (annotator "majority of N"); where they tie, the pair has no human label and
// the next source is asked. Several judges: the same. The map is keyed by pair id.
std::map<int64_t, Label> resolveLabels(const std::vector<Label> &labels, const std::vector<Source> &priority);

} // namespace rwb::prm
