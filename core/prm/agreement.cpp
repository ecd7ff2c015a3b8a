#include "prm/agreement.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace rwb::prm {

namespace {

constexpr int kCategories = 3; // A, B, Tie

bool labels(Choice c) { return c != Choice::Skip; }

int index(Choice c) { return static_cast<int>(c); }

} // namespace

std::string raterName(const Label &label)
{
    if (label.source == Source::Tree)
        return "tree";
    return std::string(sourceName(label.source)) + ": " + label.annotator;
}

PairwiseAgreement pairwiseAgreement(const std::map<int64_t, Choice> &first, const std::map<int64_t, Choice> &second)
{
    PairwiseAgreement out;
    std::array<double, kCategories> p1{}, p2{};
    for (const auto &[pair, c1] : first) {
        const auto it = second.find(pair);
        if (it == second.end() || !labels(c1) || !labels(it->second))
            continue;
        ++out.n;
        out.agree += c1 == it->second ? 1 : 0;
        p1[static_cast<size_t>(index(c1))] += 1;
        p2[static_cast<size_t>(index(it->second))] += 1;
    }
    if (out.n == 0)
        return out;
    const double n = static_cast<double>(out.n);
    out.observed = static_cast<double>(out.agree) / n;
    double pe = 0;
    for (int c = 0; c < kCategories; ++c)
        pe += (p1[static_cast<size_t>(c)] / n) * (p2[static_cast<size_t>(c)] / n);
    if (pe < 1.0 - 1e-12)
        out.kappa = (out.observed - pe) / (1.0 - pe);
    return out;
}

double krippendorffAlpha(const std::vector<std::vector<Choice>> &units)
{
    std::array<std::array<double, kCategories>, kCategories> o{};
    for (const auto &unit : units) {
        std::vector<int> values;
        for (Choice c : unit)
            if (labels(c))
                values.push_back(index(c));
        const size_t m = values.size();
        if (m < 2)
            continue;
        const double w = 1.0 / static_cast<double>(m - 1);
        for (size_t i = 0; i < m; ++i)
            for (size_t j = 0; j < m; ++j)
                if (i != j)
                    o[static_cast<size_t>(values[i])][static_cast<size_t>(values[j])] += w;
    }
    std::array<double, kCategories> nc{};
    double n = 0;
    for (int c = 0; c < kCategories; ++c)
        for (int k = 0; k < kCategories; ++k) {
            nc[static_cast<size_t>(c)] += o[static_cast<size_t>(c)][static_cast<size_t>(k)];
            n += o[static_cast<size_t>(c)][static_cast<size_t>(k)];
        }
    double observed = 0, expected = 0;
    for (int c = 0; c < kCategories; ++c)
        for (int k = 0; k < kCategories; ++k)
            if (c != k) {
                observed += o[static_cast<size_t>(c)][static_cast<size_t>(k)];
                expected += nc[static_cast<size_t>(c)] * nc[static_cast<size_t>(k)];
            }
    if (n <= 1.0 || expected <= 0.0)
        return NAN;
    return 1.0 - (n - 1.0) * observed / expected;
}

PairConsensus pairConsensus(const std::vector<Label> &labelsOfPair)
{
    PairConsensus out;
    std::array<int, kCategories> count{};
    Choice first = Choice::Skip;
    for (const Label &l : labelsOfPair) {
        if (!labels(l.choice))
            continue;
        if (out.labels == 0)
            first = l.choice;
        else if (l.choice != first)
            out.disagreement = true;
        ++out.labels;
        ++count[static_cast<size_t>(index(l.choice))];
    }
    int best = 0, bestCount = 0;
    bool tied = false;
    for (int c = 0; c < kCategories; ++c) {
        const int k = count[static_cast<size_t>(c)];
        if (k > bestCount) {
            best = c;
            bestCount = k;
            tied = false;
        } else if (k == bestCount && k > 0) {
            tied = true;
        }
    }
    if (bestCount > 0 && !tied)
        out.majority = static_cast<Choice>(best);
    return out;
}

AgreementTable agreementTable(const std::vector<Label> &all)
{
    AgreementTable t;
    std::vector<std::string> machines, people;
    std::map<int64_t, std::vector<Label>> humanByPair;
    std::map<int64_t, std::vector<Choice>> byPair;
    for (const Label &l : all) {
        if (!labels(l.choice))
            continue;
        const std::string name = raterName(l);
        auto &mine = t.labels[name];
        if (mine.empty())
            (l.source == Source::Human ? people : machines).push_back(name);
        mine[l.pairId] = l.choice;
        byPair[l.pairId].push_back(l.choice);
        if (l.source == Source::Human)
            humanByPair[l.pairId].push_back(l);
    }
    // "tree" first, then judges and imports by name; people by name.
    std::sort(machines.begin(), machines.end(), [](const std::string &a, const std::string &b) {
        return (a != "tree") != (b != "tree") ? a == "tree" : a < b;
    });
    std::sort(people.begin(), people.end());
    t.raters = machines;
    t.raters.insert(t.raters.end(), people.begin(), people.end());
    if (people.size() >= 2) {
        auto &majority = t.labels[kHumanMajority];
        std::vector<std::vector<Choice>> units;
        for (const auto &[pair, ls] : humanByPair) {
            const PairConsensus c = pairConsensus(ls);
            if (c.majority != Choice::Skip)
                majority[pair] = c.majority;
            if (ls.size() >= 2) {
                ++t.humanUnits;
                std::vector<Choice> unit;
                for (const Label &l : ls)
                    unit.push_back(l.choice);
                units.push_back(std::move(unit));
            }
        }
        t.alphaHumans = krippendorffAlpha(units);
        t.raters.push_back(kHumanMajority);
    }
    std::vector<std::vector<Choice>> units;
    for (auto &[pair, choices] : byPair)
        if (choices.size() >= 2) {
            ++t.allUnits;
            units.push_back(choices);
        }
    t.alphaAll = krippendorffAlpha(units);
    t.matrix.assign(t.raters.size(), std::vector<PairwiseAgreement>(t.raters.size()));
    for (size_t i = 0; i < t.raters.size(); ++i)
        for (size_t j = 0; j < t.raters.size(); ++j)
            t.matrix[i][j] = pairwiseAgreement(t.labels[t.raters[i]], t.labels[t.raters[j]]);
    return t;
}

std::map<int64_t, Label> resolveLabels(const std::vector<Label> &labels, const std::vector<Source> &priority)
{
    // pair → source → its labels
    std::map<int64_t, std::map<Source, std::vector<Label>>> byPair;
    for (const Label &l : labels)
        if (l.choice != Choice::Skip)
            byPair[l.pairId][l.source].push_back(l);
    std::map<int64_t, Label> out;
    for (const auto &[pair, bySource] : byPair)
        for (const Source source : priority) {
            const auto it = bySource.find(source);
            if (it == bySource.end())
                continue;
            const std::vector<Label> &ls = it->second;
            if (ls.size() == 1) {
                out[pair] = ls.front();
                break;
            }
            const PairConsensus c = pairConsensus(ls);
            if (c.majority == Choice::Skip)
                continue; // they tie: ask the next source
            Label l = ls.front();
            l.id = 0;
            l.choice = c.majority;
            l.annotator = "majority of " + std::to_string(ls.size());
            l.reason.clear();
            for (const Label &x : ls)
                if (x.choice == c.majority && !x.reason.empty()) {
                    l.reason = x.reason;
                    break;
                }
            out[pair] = l;
            break;
        }
    return out;
}

} // namespace rwb::prm
