#include "train/processadvantages.h"

#include <cmath>

namespace rwb::train {

double stepReward(double prmScore, bool formatOk, bool sigmoid, double formatBonus)
{
    const double s = sigmoid ? 1.0 / (1.0 + std::exp(-prmScore)) : prmScore;
    return s + (formatOk ? formatBonus : 0.0);
}

std::vector<std::vector<double>> processAdvantages(const std::vector<std::vector<double>> &stepRewards, int groupSize,
                                                   bool scale, double eps)
{
    std::vector<std::vector<double>> out(stepRewards.size());
    for (size_t i = 0; i < stepRewards.size(); ++i)
        out[i].assign(stepRewards[i].size(), 0.0);
    const size_t g = static_cast<size_t>(std::max(1, groupSize));
    for (size_t from = 0; from < stepRewards.size(); from += g) {
        const size_t to = std::min(stepRewards.size(), from + g);
        size_t longest = 0;
        for (size_t i = from; i < to; ++i)
            longest = std::max(longest, stepRewards[i].size());
        for (size_t t = 0; t < longest; ++t) {
            double sum = 0;
            int n = 0;
            for (size_t i = from; i < to; ++i)
                if (t < stepRewards[i].size()) {
                    sum += stepRewards[i][t];
                    ++n;
                }
            const double mean = sum / n;
            double sq = 0;
            for (size_t i = from; i < to; ++i)
                if (t < stepRewards[i].size())
                    sq += (stepRewards[i][t] - mean) * (stepRewards[i][t] - mean);
            const double sd = n > 1 ? std::sqrt(sq / (n - 1)) : 0.0;
            for (size_t i = from; i < to; ++i)
                if (t < stepRewards[i].size()) {
                    const double d = stepRewards[i][t] - mean;
                    out[i][t] = !scale ? d : (sd + eps > 0 ? d / (sd + eps) : 0.0);
                }
        }
    }
    return out;
}

std::vector<int> tokenSteps(const std::vector<int32_t> &tokens, int32_t stepEnd)
{
    std::vector<int> steps(tokens.size());
    int step = 0;
    for (size_t k = 0; k < tokens.size(); ++k) {
        steps[k] = step;
        if (tokens[k] == stepEnd)
            ++step;
    }
    return steps;
}

std::vector<double> tokenAdvantages(double outcome, const std::vector<double> &process, const std::vector<int> &steps,
                                    double beta)
{
    std::vector<double> out(steps.size(), outcome);
    for (size_t k = 0; k < steps.size(); ++k)
        if (steps[k] >= 0 && static_cast<size_t>(steps[k]) < process.size())
            out[k] = outcome + beta * process[static_cast<size_t>(steps[k])];
    return out;
}

} // namespace rwb::train
