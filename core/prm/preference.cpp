#include "prm/preference.h"

#include "data/jsonfields.h"
#include "data/jsonl.h"
#include "util/rng.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <stdexcept>

namespace rwb::prm {

namespace {

constexpr const char *kChoiceNames[] = {"a", "b", "tie", "skip"};
constexpr const char *kSourceNames[] = {"tree", "judge", "human", "import"};

std::string number(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", v);
    return buf;
}

std::vector<std::string> historyOf(const mcts::SearchRecord &record, int node)
{
    std::vector<std::string> steps;
    for (int n = node; n > mcts::SearchTree::kRoot; n = record.tree.node(n).parent)
        steps.push_back(record.tree.node(n).step);
    std::reverse(steps.begin(), steps.end());
    return steps;
}

StepPair pairOf(const mcts::SearchRecord &record, int parent, int a, int b, int64_t treeId, const std::string &set)
{
    const mcts::Node &na = record.tree.node(a), &nb = record.tree.node(b);
    StepPair p;
    p.set = set;
    p.treeId = treeId;
    p.questionId = record.questionId;
    p.question = record.question;
    p.gold = record.goldAnswer;
    p.history = historyOf(record, parent);
    p.parentNode = parent;
    p.nodeA = a;
    p.nodeB = b;
    p.stepA = na.step;
    p.stepB = nb.step;
    p.valueA = na.q();
    p.valueB = nb.q();
    p.visitsA = na.visits;
    p.visitsB = nb.visits;
    return p;
}

// The fields both export forms share beyond TRL's.
nlohmann::ordered_json extraFields(const StepPair &pair, const Label &label, bool aChosen)
{
    nlohmann::ordered_json j;
    j["question_id"] = pair.questionId;
    j["question"] = pair.question;
    j["gold"] = pair.gold;
    j["history"] = pair.history;
    j["chosen_value"] = aChosen ? pair.valueA : pair.valueB;
    j["rejected_value"] = aChosen ? pair.valueB : pair.valueA;
    j["chosen_visits"] = aChosen ? pair.visitsA : pair.visitsB;
    j["rejected_visits"] = aChosen ? pair.visitsB : pair.visitsA;
    j["source"] = sourceName(label.source);
    j["annotator"] = label.annotator;
    j["reason"] = label.reason;
    return j;
}

std::string optionalString(const nlohmann::json &obj, const char *field, const data::jsonfields::Place &place)
{
    const auto it = obj.find(field);
    if (it == obj.end() || it->is_null())
        return {};
    return data::jsonfields::asString(*it, field, place);
}

double optionalNumber(const nlohmann::json &obj, const char *field, const data::jsonfields::Place &place)
{
    const auto it = obj.find(field);
    if (it == obj.end() || it->is_null())
        return 0.0;
    if (!it->is_number() || !std::isfinite(it->get<double>()))
        data::jsonfields::fail(place, std::string("field \"") + field + "\" must be a finite number");
    return it->get<double>();
}

int optionalCount(const nlohmann::json &obj, const char *field, const data::jsonfields::Place &place)
{
    const double v = optionalNumber(obj, field, place);
    if (v < 0 || v > 1e9 || v != std::floor(v))
        data::jsonfields::fail(place, std::string("field \"") + field + "\" must be a whole number of visits ≥ 0");
    return static_cast<int>(v);
}

// The fields both forms share, read into a pair and its label (`aChosen`: the chosen
// step goes to A).
void readShared(const nlohmann::json &obj, const data::jsonfields::Place &place, const std::string &prompt,
                StepPair &pair, Label &label)
{
    // A DPO file's "id" numbers rows, not questions: without "question_id" the question
    // is its own id, so that a held-out split keeps a question's pairs together.
    pair.question = optionalString(obj, "question", place);
    if (pair.question.empty())
        pair.question = prompt;
    pair.questionId = optionalString(obj, "question_id", place);
    if (pair.questionId.empty())
        pair.questionId = pair.question;
    pair.gold = optionalString(obj, "gold", place);
    if (const auto it = obj.find("history"); it != obj.end() && !it->is_null())
        pair.history = data::jsonfields::asStringArray(*it, "history", place);
    label.annotator = optionalString(obj, "annotator", place);
    label.reason = optionalString(obj, "reason", place);
    const std::string source = optionalString(obj, "source", place);
    label.source = Source::Import;
    if (!source.empty() && !parseSource(source, label.source))
        data::jsonfields::fail(place, "field \"source\" must be tree, judge, human or import, not \"" + source + "\"");
}

} // namespace

const char *choiceName(Choice choice) { return kChoiceNames[static_cast<int>(choice)]; }

bool parseChoice(std::string_view text, Choice &choice)
{
    for (int i = 0; i < 4; ++i)
        if (text == kChoiceNames[i]) {
            choice = static_cast<Choice>(i);
            return true;
        }
    return false;
}

const char *sourceName(Source source) { return kSourceNames[static_cast<int>(source)]; }

bool parseSource(std::string_view text, Source &source)
{
    for (int i = 0; i < 4; ++i)
        if (text == kSourceNames[i]) {
            source = static_cast<Source>(i);
            return true;
        }
    return false;
}

std::string StepPair::context() const
{
    std::string text = question + "\n\n";
    for (const std::string &s : history)
        text += s;
    return text;
}

std::vector<StepPair> siblingPairs(const mcts::SearchRecord &record, const PairOptions &options, int64_t treeId,
                                   const std::string &set)
{
    std::vector<StepPair> out;
    const uint64_t questionHash = util::fnv1a64(record.questionId);
    for (const mcts::Node &parent : record.tree.nodes()) {
        if (parent.children.size() < 2)
            continue;
        struct Candidate {
            int a, b;
            double gap;
        };
        std::vector<Candidate> candidates;
        for (size_t i = 0; i < parent.children.size(); ++i)
            for (size_t j = i + 1; j < parent.children.size(); ++j) {
                const mcts::Node &x = record.tree.node(parent.children[i]), &y = record.tree.node(parent.children[j]);
                if (x.visits < options.minVisits || y.visits < options.minVisits || x.step == y.step)
                    continue;
                const double gap = std::abs(x.q() - y.q());
                if (gap + 1e-12 < options.margin)
                    continue;
                candidates.push_back({x.id, y.id, gap});
            }
        // The largest gaps first; among equal gaps, the tree's order.
        std::stable_sort(candidates.begin(), candidates.end(),
                         [](const Candidate &l, const Candidate &r) { return l.gap > r.gap; });
        if (static_cast<int>(candidates.size()) > options.maxPerParent)
            candidates.resize(static_cast<size_t>(std::max(0, options.maxPerParent)));
        for (const Candidate &c : candidates) {
            util::Rng rng = util::Rng::forStream(options.seed ^ questionHash, static_cast<uint64_t>(c.a),
                                                 static_cast<uint64_t>(c.b));
            const bool swap = rng.chance(0.5);
            out.push_back(pairOf(record, parent.id, swap ? c.b : c.a, swap ? c.a : c.b, treeId, set));
        }
    }
    return out;
}

StepPair manualPair(const mcts::SearchRecord &record, int nodeA, int nodeB, int64_t treeId, const std::string &set)
{
    const int count = static_cast<int>(record.tree.nodes().size());
    if (nodeA <= 0 || nodeB <= 0 || nodeA >= count || nodeB >= count)
        throw std::invalid_argument("nodes " + std::to_string(nodeA) + " and " + std::to_string(nodeB) +
                                    " are not both steps of the tree (1 … " + std::to_string(count - 1) + ")");
    if (nodeA == nodeB)
        throw std::invalid_argument("a step is not compared with itself (node " + std::to_string(nodeA) + ")");
    const int parent = record.tree.node(nodeA).parent;
    if (record.tree.node(nodeB).parent != parent)
        throw std::invalid_argument("nodes " + std::to_string(nodeA) + " and " + std::to_string(nodeB) +
                                    " are not siblings (their parents are " + std::to_string(parent) + " and " +
                                    std::to_string(record.tree.node(nodeB).parent) + ")");
    StepPair p = pairOf(record, parent, nodeA, nodeB, treeId, set);
    p.origin = "manual";
    return p;
}

Label treeLabel(const StepPair &pair, double margin)
{
    Label l;
    l.pairId = pair.id;
    l.source = Source::Tree;
    l.annotator = "tree";
    const double gap = pair.valueA - pair.valueB;
    l.choice = std::abs(gap) + 1e-12 < margin ? Choice::Tie : (gap > 0 ? Choice::A : Choice::B);
    l.reason = "Q " + number(pair.valueA) + " vs " + number(pair.valueB) + " (N " + std::to_string(pair.visitsA) +
               " vs " + std::to_string(pair.visitsB) + ")";
    return l;
}

std::string dpoLine(const StepPair &pair, const Label &label)
{
    if (label.choice != Choice::A && label.choice != Choice::B)
        return {};
    const bool aChosen = label.choice == Choice::A;
    nlohmann::ordered_json j;
    j["id"] = pair.id;
    j["prompt"] = pair.context();
    j["chosen"] = aChosen ? pair.stepA : pair.stepB;
    j["rejected"] = aChosen ? pair.stepB : pair.stepA;
    j.update(extraFields(pair, label, aChosen));
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::vector<std::string> stepwiseLines(const StepPair &pair, const Label &label)
{
    if (label.choice != Choice::A && label.choice != Choice::B)
        return {};
    const bool aChosen = label.choice == Choice::A;
    std::vector<std::string> lines;
    for (const bool chosen : {true, false}) {
        nlohmann::ordered_json j;
        j["pair_id"] = pair.id;
        j["prompt"] = pair.context();
        j["completions"] = {chosen == aChosen ? pair.stepA : pair.stepB};
        j["labels"] = {chosen};
        j.update(extraFields(pair, label, aChosen));
        lines.push_back(j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    }
    return lines;
}

ImportedPairs parsePreferenceText(std::string_view text, const std::string &source, const std::string &set)
{
    using namespace data::jsonfields;
    ImportedPairs out;
    const std::string annotatorDefault = std::filesystem::path(source).filename().string();
    // Stepwise lines waiting for their opposite: key (prompt + all completions but the
    // last) → lines not yet paired, in file order.
    struct Pending {
        size_t line;
        bool label;
        std::string step;
        StepPair pair;
        Label meta;
    };
    std::map<std::string, std::vector<Pending>> pending;
    const auto finish = [&](StepPair pair, Label label) {
        pair.set = set;
        pair.origin = "import";
        // The chosen step came first in the file; a fixed coin (a hash of the texts) puts it
        // in A or B, so that neither place means "better" in the annotation view.
        if (util::fnv1a64(pair.context() + '\x1f' + pair.stepA + '\x1f' + pair.stepB) & 1) {
            std::swap(pair.stepA, pair.stepB);
            std::swap(pair.valueA, pair.valueB);
            std::swap(pair.visitsA, pair.visitsB);
            label.choice = label.choice == Choice::A ? Choice::B : Choice::A;
        }
        if (label.annotator.empty())
            label.annotator = annotatorDefault;
        out.pairs.push_back(std::move(pair));
        out.labels.push_back(std::move(label));
    };
    data::forEachLine(text, [&](size_t lineNo, std::string_view line) {
        const Place place{source, lineNo};
        ++out.lines;
        const nlohmann::json obj = parseObject(line, place);
        const std::string prompt = asString(require(obj, "prompt", place), "prompt", place);
        StepPair pair;
        Label label;
        readShared(obj, place, prompt, pair, label);
        if (obj.contains("chosen") || obj.contains("rejected")) {
            pair.stepA = asString(require(obj, "chosen", place), "chosen", place);
            pair.stepB = asString(require(obj, "rejected", place), "rejected", place);
            pair.valueA = optionalNumber(obj, "chosen_value", place);
            pair.valueB = optionalNumber(obj, "rejected_value", place);
            pair.visitsA = optionalCount(obj, "chosen_visits", place);
            pair.visitsB = optionalCount(obj, "rejected_visits", place);
            label.choice = Choice::A;
            finish(std::move(pair), std::move(label));
            return true;
        }
        const std::vector<std::string> completions =
            asStringArray(require(obj, "completions", place), "completions", place);
        const nlohmann::json &labels = require(obj, "labels", place);
        if (!labels.is_array() || labels.size() != completions.size())
            fail(place, "field \"labels\" must be an array as long as \"completions\" (" +
                            std::to_string(completions.size()) + ")");
        if (completions.empty())
            fail(place, "field \"completions\" is empty: no step to pair");
        const nlohmann::json &last = labels.back();
        if (!last.is_boolean() && !last.is_number())
            fail(place, "field \"labels[" + std::to_string(labels.size() - 1) + "]\" must be true, false or a number");
        const bool good = last.is_boolean() ? last.get<bool>() : last.get<double>() >= 0.5;
        std::string key = prompt;
        for (size_t i = 0; i + 1 < completions.size(); ++i) {
            key += '\x1f';
            key += completions[i];
            pair.history.push_back(completions[i]);
        }
        Pending mine{lineNo, good, completions.back(), std::move(pair), std::move(label)};
        mine.pair.visitsA = optionalCount(obj, good ? "chosen_visits" : "rejected_visits", place);
        mine.pair.valueA = optionalNumber(obj, good ? "chosen_value" : "rejected_value", place);
        std::vector<Pending> &waiting = pending[key];
        const auto match = std::find_if(waiting.begin(), waiting.end(),
                                        [&](const Pending &p) { return p.label != mine.label; });
        if (match == waiting.end()) {
            waiting.push_back(std::move(mine));
            return true;
        }
        Pending other = std::move(*match);
        waiting.erase(match);
        Pending &chosen = mine.label ? mine : other;
        Pending &rejected = mine.label ? other : mine;
        StepPair p = std::move(chosen.pair);
        p.stepA = chosen.step;
        p.stepB = rejected.step;
        p.valueB = rejected.pair.valueA;
        p.visitsB = rejected.pair.visitsA;
        Label l = std::move(chosen.meta);
        l.choice = Choice::A;
        finish(std::move(p), std::move(l));
        return true;
    });
    for (const auto &[key, waiting] : pending)
        out.unpaired += waiting.size();
    return out;
}

ImportedPairs readPreferenceFile(const std::string &path, const std::string &set)
{
    return parsePreferenceText(data::readTextFile(path), path, set);
}

} // namespace rwb::prm
