#include "eval/confusionmatrix.h"

#include <cstddef>
#include <limits>

namespace rwb::eval {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
}

ConfusionMatrix::ConfusionMatrix(int labels)
    : m_labels(labels > 0 ? labels : 0), m_counts(static_cast<std::size_t>(m_labels * m_labels), 0)
{
}

bool ConfusionMatrix::add(int reference, int judged)
{
    if (reference < 0 || judged < 0 || reference >= m_labels || judged >= m_labels)
        return false;
    ++m_counts[static_cast<std::size_t>(reference * m_labels + judged)];
    ++m_total;
    return true;
}

int ConfusionMatrix::count(int reference, int judged) const
{
    if (reference < 0 || judged < 0 || reference >= m_labels || judged >= m_labels)
        return 0;
    return m_counts[static_cast<std::size_t>(reference * m_labels + judged)];
}

int ConfusionMatrix::referenceTotal(int reference) const
{
    int n = 0;
    for (int j = 0; j < m_labels; ++j)
        n += count(reference, j);
    return n;
}

int ConfusionMatrix::judgedTotal(int judged) const
{
    int n = 0;
    for (int r = 0; r < m_labels; ++r)
        n += count(r, judged);
    return n;
}

double ConfusionMatrix::precision(int label) const
{
    const int judged = judgedTotal(label);
    return judged > 0 ? static_cast<double>(count(label, label)) / judged : kNaN;
}

double ConfusionMatrix::recall(int label) const
{
    const int reference = referenceTotal(label);
    return reference > 0 ? static_cast<double>(count(label, label)) / reference : kNaN;
}

double ConfusionMatrix::f1(int label) const
{
    const int both = judgedTotal(label) + referenceTotal(label);
    return both > 0 ? 2.0 * count(label, label) / both : kNaN;
}

double ConfusionMatrix::agreement() const
{
    if (m_total == 0)
        return kNaN;
    int diagonal = 0;
    for (int l = 0; l < m_labels; ++l)
        diagonal += count(l, l);
    return static_cast<double>(diagonal) / m_total;
}

double ConfusionMatrix::macroF1() const
{
    double sum = 0.0;
    int n = 0;
    for (int l = 0; l < m_labels; ++l) {
        const double f = f1(l);
        if (f == f) { // not NaN
            sum += f;
            ++n;
        }
    }
    return n > 0 ? sum / n : kNaN;
}

} // namespace rwb::eval
