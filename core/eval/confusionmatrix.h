#pragma once

#include <vector>

namespace rwb::eval {

// Counts of (reference label, judged label) pairs over k labels 0 … k−1, and the
// agreement figures a judge is trusted by (the legal-QA paper's table 3 reports them for
// a judge against a reference judge):
//   precision(l) = n(l, l) / Σ_r n(r, l)      of what the judge called l, how much was l
//   recall(l)    = n(l, l) / Σ_j n(l, j)      of what was l, how much the judge called l
//   F1(l)        = 2·n(l, l) / (Σ_r n(r, l) + Σ_j n(l, j))   (the harmonic mean of the two;
//                  0 when the label was judged or referenced but never both at once)
//   agreement    = Σ_l n(l, l) / n             (accuracy)
//   macro F1     = the mean of F1 over the labels that occur on either side.
// A figure with nothing to divide by is NaN (shown as "—"). A plain value; any thread.
class ConfusionMatrix {
public:
    explicit ConfusionMatrix(int labels = 0);

    int labels() const { return m_labels; }
    // Adds one pair; labels outside 0 … k−1 are ignored (returns false).
    bool add(int reference, int judged);
    int count(int reference, int judged) const;
    int referenceTotal(int reference) const; // Σ_j n(reference, j)
    int judgedTotal(int judged) const;       // Σ_r n(r, judged)
    int total() const { return m_total; }

    double precision(int label) const;
    double recall(int label) const;
    double f1(int label) const;
    double agreement() const;
    double macroF1() const;

private:
    int m_labels = 0;
    int m_total = 0;
    std::vector<int> m_counts; // row-major: reference × judged
};

} // namespace rwb::eval
