#include "cli.h"
#include "commands.h"

#include "data/jsonl.h"
#include "eval/bootstrap.h"
#include "eval/failureanalysis.h"
#include "task/catalog.h"
#include "tokenizer/promptformat.h"
#include "util/boundedjson.h"

#include <cmath>
#include <iomanip>
#include <iostream>
#include <map>
#include <numeric>
#include <nlohmann/json.hpp>
#include <sstream>

namespace rwb::cli {

namespace {

const char *const kEvalHelp = R"(rwb eval — evaluation metrics

Subcommands:
  score   precision / recall / F1 of completions against their golds
  run     generate with a model on a dataset and score it
  failures  predictions grouped by what went wrong (and what two checkpoints fixed / broke)
  compare   two models' predictions of the same examples: the paired differences of the
            task's metrics with bootstrap intervals, and the power of the comparison
Run "rwb eval <subcommand> --help" for its options.
)";

const char *const kScoreHelp = R"(rwb eval score — a task's metrics of scored completions (company_extraction:
precision, recall and F1, the first paper's §2.4)

Usage: rwb eval score --task T --input I.jsonl [--thinking] [--skip-invalid]

  --task T          the task (company_extraction, legal_qa, multihop, chat)
  --input I.jsonl   the task's lines with the model's "completion" (company_extraction:
                    {"id", "task", "sender_email", "email_text", "completion", "gold"})
  --thinking        the answer is the text of the first <answer>…</answer> ("" when none)
  --skip-invalid    report malformed lines on stderr and go on

Prints one JSON object: the task's metrics and the counts behind them; for
company_extraction {"precision", "recall", "f1", "n_output", "n_exist", "n_tp"}:
  N_output: answers that are not 不明 after normalization (an empty answer counts)
  N_exist:  golds that are not 不明
  N_tp:     answers equal to their gold after normalization, the gold not 不明
  precision = N_tp / N_output, recall = N_tp / N_exist, F1 = 2PR / (P + R); 0 when a denominator is 0.
Normalization: NFKC, then all white space removed (case kept).
)";

int score(const std::vector<std::string> &argv)
{
    const Args args(argv, {{"task", "input"}, {"thinking", "skip-invalid", "help"}});
    if (args.has("help")) {
        std::cout << kScoreHelp;
        return kExitOk;
    }
    const std::string taskName = args.required("task");
    const task::Task *found = task::Catalog::builtin().find(taskName);
    if (!found)
        throw UsageError{"unknown task \"" + taskName + "\" (allowed: " +
                         reward::joinNames(task::Catalog::builtin().names()) + ")"};
    const task::Task &task = *found;
    const std::string inputPath = args.required("input");
    std::vector<data::InputError> skipped;
    task::ReadOptions options;
    options.requireCompletion = true; // a line without the model's completion is an error
    if (args.has("skip-invalid"))
        options.skipped = &skipped;
    const std::vector<task::Record> input = task.read(inputPath, options);
    for (const data::InputError &e : skipped)
        std::cerr << e.toString() << " (skipped)" << std::endl;
    // The task's metrics, then the counts behind them (extraction: precision, recall, f1,
    // n_output, n_exist, n_tp).
    const std::unique_ptr<task::MetricSet> metrics = task.metrics();
    for (const task::Record &r : input)
        metrics->add(*r.example, *task.parse(*r.example, r.completion, args.has("thinking")));
    nlohmann::ordered_json j;
    for (const auto &[name, value] : metrics->result())
        j[name] = value;
    for (const auto &[name, value] : metrics->counts())
        j[name] = value;
    std::cout << j.dump() << std::endl;
    return kExitOk;
}

const char *const kFailuresHelp = R"(rwb eval failures — predictions grouped by what went wrong

Usage: rwb eval failures --predictions P.jsonl [--against Q.jsonl] [--examples]

  --predictions P.jsonl   predictions as `rwb eval run --output` writes them (the model's
                          output as "completion"; thinking mode per line when it holds <answer>)
  --against Q.jsonl       a second checkpoint's predictions of the same examples (by id)
  --examples              also one line per prediction: {"id", "answer", "category"} and
                          what the task says besides (extraction: "source")

Prints one JSON object: {"task" (when not the default task), "total", "counts":
{category: n}} and what the task counts over its examples (extraction:
"parties_from_data"), and with --against also "against": {"total", "counts"}, "fixed",
"broke", "joined", "transitions": {"a->b": n}. The categories are the task's (the first
line's "task"; see docs/guide.md). Extraction's, first that fits: exact, no_answer,
missed, marker_only, named_where_unknown, recipient, third_party, invented, other_wrong;
recipients and third parties come from the lines' "recipient_company" /
"other_companies" when present, else from the addressee block and legal-entity markers.
)";

int failures(const std::vector<std::string> &argv)
{
    const Args args(argv, {{"predictions", "against"}, {"examples", "help"}});
    if (args.has("help")) {
        std::cout << kFailuresHelp;
        return kExitOk;
    }
    const std::string first = args.required("predictions");
    const eval::FailureData d = eval::loadPredictionFailures(first, args.value("against"));
    const task::Task &task = task::Catalog::builtin().get(d.task, first, "task");
    const size_t n = d.categories.size();
    const auto countsJson = [&](const eval::FailureCounts &c) {
        nlohmann::ordered_json j;
        for (size_t i = 0; i < n; ++i)
            j[d.categories[i].key] = c.of(i);
        return j;
    };
    if (!d.checkpoints.count(0))
        throw data::InputException({first, 0, "no prediction of a known example"});
    const auto &a = d.checkpoints.at(0);
    nlohmann::ordered_json j;
    if (d.task != task::Catalog::builtin().find("")->name())
        j["task"] = d.task;
    j["total"] = a.size();
    j["counts"] = countsJson(eval::countFailures(a, n));
    // What the task says of its examples, summed over them (extraction: "parties_from_data").
    nlohmann::ordered_json sums = nlohmann::ordered_json::object();
    for (const auto &[id, example] : d.examples) {
        const nlohmann::json facts = util::parseJsonOrDiscarded(task.failureExampleJson(*example));
        if (!facts.is_object())
            continue;
        for (const auto &[key, value] : facts.items()) {
            if (!value.is_boolean() && !value.is_number())
                continue;
            const double add = value.is_boolean() ? (value.get<bool>() ? 1.0 : 0.0) : value.get<double>();
            sums[key] = sums.value(key, 0.0) + add;
        }
    }
    for (const auto &[key, value] : sums.items()) {
        const double v = value.get<double>();
        if (v == static_cast<double>(static_cast<int64_t>(v)))
            j[key] = static_cast<int64_t>(v);
        else
            j[key] = v;
    }
    if (d.checkpoints.count(1)) {
        const auto &b = d.checkpoints.at(1);
        const eval::FailureComparison c = eval::compareFailures(a, b, n);
        j["against"] = {{"total", b.size()}, {"counts", countsJson(eval::countFailures(b, n))}};
        j["joined"] = c.joined;
        j["fixed"] = c.fixed;
        j["broke"] = c.broke;
        nlohmann::ordered_json t = nlohmann::ordered_json::object();
        for (size_t x = 0; x < n; ++x)
            for (size_t y = 0; y < n; ++y)
                if (c.transitions[x][y])
                    t[d.categories[x].key + "->" + d.categories[y].key] = c.transitions[x][y];
        j["transitions"] = t;
    }
    std::cout << j.dump() << std::endl;
    if (args.has("examples"))
        for (const eval::AnalyzedPrediction &p : a) {
            nlohmann::ordered_json e;
            e["id"] = p.exampleId;
            e["answer"] = p.answer;
            e["category"] = p.category < n ? d.categories[p.category].key : std::string("?");
            const nlohmann::json details = util::parseJsonOrDiscarded(p.detailsJson);
            if (details.is_object())
                for (const auto &[key, value] : details.items())
                    if (!e.contains(key))
                        e[key] = value;
            std::cout << e.dump() << std::endl;
        }
    return kExitOk;
}

const char *const kCompareHelp = R"(rwb eval compare — is B better than A on the same examples, and how sure is that

Usage: rwb eval compare --a A.jsonl [--a A2.jsonl …] --b B.jsonl [--b B2.jsonl …]
                        [--task T] [--thinking | --thinking-a | --thinking-b] [--effect D] [--examples N]
                        [--resamples R] [--seed S] [--markdown] [--label-a NAME] [--label-b NAME]

  --a, --b        predictions as `rwb eval run --output` writes them; several files on a
                  side are that configuration's seeds (runs), pooled: each side's metric is
                  the task's metric over every (example, seed) prediction
  --task T        the task (default: the first line's "task", else company_extraction)
  --thinking      the answer is the text of the first <answer>…</answer>
  --thinking-a, --thinking-b   so on one side only (a model trained with thinking
                  against one without)
  --effect D      also the examples needed to detect a difference of D at 80 % power
  --examples N    also the difference detectable at 80 % power on N examples
  --resamples R   bootstrap resamples (2000); --seed S their seed (1)
  --markdown      a table instead of JSON
  --label-a, --label-b   names for the table (default "A", "B")

Examples are joined by id: only those every file predicts are compared (the others are
counted). The bootstrap resamples examples, each with all its seeds' predictions on both
sides, so the interval is that of the difference on the examples' population for these
runs, not over training seeds; with as many files a side (two or more), "per_seed" gives
seed k's difference against seed k, whose spread is what another seed would move the
estimate by. An id must be the same example in every file (same gold, same input). Metrics: the task's (company_extraction:
precision, recall, f1) and "correct", the share of right predictions.

Power (two-sided 5 % test, 80 % power): detectable = 2.80 · se · √(n / N), needed =
n · (2.80 · se / D)², where se is the bootstrap standard error on these n examples.

Prints {"task", "joined", "dropped", "a": {metric: value}, "b": {…}, "difference":
{metric: {"estimate", "low", "high", "se", "detectable"}}, "per_seed" (when both sides
have as many files), "needed" (with --effect)}.
)";

// One prediction file of a side, parsed: its predictions by example id.
struct PredictionFile {
    std::string path;
    std::vector<task::Record> records;
    std::vector<std::unique_ptr<task::Completion>> parsed;
    std::map<std::string, size_t> byId;
};

std::string fixed3(double x)
{
    std::ostringstream o;
    o << std::fixed << std::setprecision(3) << x;
    return o.str();
}

std::string signed3(double x)
{
    return (x >= 0.0 ? "+" : "") + fixed3(x == 0.0 ? 0.0 : x);
}

int compare(const std::vector<std::string> &argv)
{
    const Args args(argv, {{"a", "b", "task", "effect", "examples", "resamples", "seed", "label-a", "label-b"},
                           {"thinking", "thinking-a", "thinking-b", "markdown", "help"}});
    if (args.has("help")) {
        std::cout << kCompareHelp;
        return kExitOk;
    }
    const std::vector<std::string> aPaths = args.values("a"), bPaths = args.values("b");
    if (aPaths.empty() || bPaths.empty())
        throw UsageError{"--a and --b: at least one predictions file each"};
    // Checked as numbers before they are cast: NaN, infinities and out-of-range values are
    // usage errors naming the option.
    const double resamplesValue = args.number("resamples", 2000);
    if (!(resamplesValue >= 100 && resamplesValue <= 1000000) || resamplesValue != std::floor(resamplesValue))
        throw UsageError{"--resamples: a whole number between 100 and 1000000"};
    const int resamples = static_cast<int>(resamplesValue);
    const double seedValue = args.number("seed", 1);
    if (!(seedValue >= 0 && seedValue <= 9007199254740992.0) || seedValue != std::floor(seedValue))
        throw UsageError{"--seed: a whole number from 0 to 2^53"};
    const auto seed = static_cast<uint64_t>(seedValue);
    const double effect = args.number("effect", 0.0);
    if (args.has("effect") && !(effect > 0.0 && effect < 1.0))
        throw UsageError{"--effect: a difference above 0 and below 1 (0.014 for the first paper's SFT → GRPO over SFT → SFT)"};
    const double targetExamples = args.number("examples", 0.0);
    if (args.has("examples") &&
        !(targetExamples >= 1.0 && targetExamples <= 1e12 && targetExamples == std::floor(targetExamples)))
        throw UsageError{"--examples: a whole number of examples, from 1 to 10^12"};
    std::string taskName = args.value("task");
    if (taskName.empty())
        taskName = task::taskOfJsonl(data::readTextFile(aPaths.front()));
    const task::Task &task = taskName.empty() ? *task::Catalog::builtin().find("")
                                              : task::Catalog::builtin().get(taskName, aPaths.front(), "task");
    const bool thinkingA = args.has("thinking") || args.has("thinking-a");
    const bool thinkingB = args.has("thinking") || args.has("thinking-b");

    const auto load = [&](const std::string &path, bool thinking) {
        PredictionFile f;
        f.path = path;
        task::ReadOptions options;
        options.requireCompletion = true;
        f.records = task.read(path, options);
        for (const task::Record &r : f.records) {
            const std::string &id = r.example->id();
            if (id.empty())
                throw data::InputException({path, r.line, "id: every prediction needs one to be joined"});
            if (!f.byId.emplace(id, f.parsed.size()).second)
                throw data::InputException({path, r.line, "id: \"" + id + "\" predicted twice"});
            f.parsed.push_back(task.parse(*r.example, r.completion, thinking));
        }
        return f;
    };
    std::vector<PredictionFile> a, b;
    for (const std::string &p : aPaths)
        a.push_back(load(p, thinkingA));
    for (const std::string &p : bPaths)
        b.push_back(load(p, thinkingB));

    // The ids every file predicts, in the first file's order.
    std::vector<std::string> ids;
    for (const task::Record &r : a.front().records) {
        const std::string &id = r.example->id();
        bool everywhere = true;
        for (const auto *side : {&a, &b})
            for (const PredictionFile &f : *side)
                everywhere = everywhere && f.byId.count(id);
        if (everywhere)
            ids.push_back(id);
    }
    if (ids.empty()) {
        // Name a file that shares no id with the first one, or say that no id is in all.
        for (const auto *side : {&a, &b})
            for (const PredictionFile &f : *side) {
                bool any = false;
                for (const auto &[id, at] : f.byId)
                    any = any || a.front().byId.count(id);
                if (!any)
                    throw data::InputException({f.path, 0, "no example id in common with " + aPaths.front()});
            }
        throw data::InputException({bPaths.front(), 0, "no example id is predicted by every file"});
    }
    // The same id must be the same example in every file (the same gold and the same
    // prompt): ids of generated sets repeat across seeds and splits ("test-000001").
    const tokenizer::PromptFormat plain;
    for (const std::string &id : ids) {
        const task::Record &first = a.front().records[a.front().byId.at(id)];
        const std::string gold = first.example->goldText();
        const std::string prompt = task.prompt(*first.example, plain, false);
        for (const auto *side : {&a, &b})
            for (const PredictionFile &f : *side) {
                const task::Record &r = f.records[f.byId.at(id)];
                if (r.example->goldText() != gold || task.prompt(*r.example, plain, false) != prompt)
                    throw data::InputException(
                        {f.path, r.line,
                         "id \"" + id + "\" is another example than at " + aPaths.front() + ":" + std::to_string(first.line) +
                             " (its gold or its input differs): the files predict different example sets"});
            }
    }
    size_t dropped = 0;
    for (const auto *side : {&a, &b})
        for (const PredictionFile &f : *side)
            dropped += f.records.size() - ids.size();
    // Per file, the index of each joined example's prediction.
    const auto indexOf = [&](const std::vector<PredictionFile> &side) {
        std::vector<std::vector<size_t>> at(side.size());
        for (size_t k = 0; k < side.size(); ++k)
            for (const std::string &id : ids)
                at[k].push_back(side[k].byId.at(id));
        return at;
    };
    const std::vector<std::vector<size_t>> aAt = indexOf(a), bAt = indexOf(b);

    std::vector<std::string> names;
    for (const auto &[name, value] : task.metrics()->result())
        names.push_back(name);
    names.push_back("correct");
    // A side's metrics over the picked examples, every file's prediction of each.
    const auto metricsOf = [&](const std::vector<PredictionFile> &side, const std::vector<std::vector<size_t>> &at,
                               const std::vector<size_t> &pick, const std::vector<size_t> &files) {
        const std::unique_ptr<task::MetricSet> m = task.metrics();
        double right = 0.0, total = 0.0;
        for (size_t k : files)
            for (size_t i : pick) {
                const size_t j = at[k][i];
                const task::Example &example = *side[k].records[j].example;
                m->add(example, *side[k].parsed[j]);
                right += m->correct(example, *side[k].parsed[j]) ? 1.0 : 0.0;
                total += 1.0;
            }
        std::vector<double> out;
        for (const auto &[name, value] : m->result())
            out.push_back(value);
        out.push_back(total > 0.0 ? right / total : 0.0);
        return out;
    };
    std::vector<size_t> aFiles(a.size()), bFiles(b.size());
    std::iota(aFiles.begin(), aFiles.end(), size_t{0});
    std::iota(bFiles.begin(), bFiles.end(), size_t{0});
    const size_t n = ids.size();
    std::vector<size_t> all(n);
    std::iota(all.begin(), all.end(), size_t{0});
    const std::vector<double> aAll = metricsOf(a, aAt, all, aFiles), bAll = metricsOf(b, bAt, all, bFiles);
    const std::vector<eval::Interval> diff = eval::pairedDifferences(
        n,
        [&](const std::vector<size_t> &pick) {
            const std::vector<double> x = metricsOf(a, aAt, pick, aFiles), y = metricsOf(b, bAt, pick, bFiles);
            std::vector<double> d(x.size());
            for (size_t k = 0; k < x.size(); ++k)
                d[k] = y[k] - x[k];
            return d;
        },
        resamples, seed);

    nlohmann::ordered_json j;
    j["task"] = std::string(task.name());
    j["joined"] = n;
    j["dropped"] = dropped;
    j["a"] = {{"files", a.size()}};
    j["b"] = {{"files", b.size()}};
    for (size_t k = 0; k < names.size(); ++k) {
        j["a"][names[k]] = aAll[k];
        j["b"][names[k]] = bAll[k];
        // Without variation (the same predictions, or the same change on every example) the
        // standard error is 0 and power says nothing: null, not 0.
        const bool varies = diff[k].standardError > 0.0;
        const auto orNull = [&](double v) { return varies ? nlohmann::ordered_json(v) : nlohmann::ordered_json(); };
        nlohmann::ordered_json d{{"estimate", diff[k].estimate},
                                 {"low", diff[k].low},
                                 {"high", diff[k].high},
                                 {"se", diff[k].standardError},
                                 {"detectable", orNull(eval::detectableEffect(diff[k].standardError, n, n))}};
        if (args.has("examples"))
            d["detectable_on_examples"] =
                orNull(eval::detectableEffect(diff[k].standardError, n, static_cast<size_t>(targetExamples)));
        j["difference"][names[k]] = d;
        if (args.has("effect"))
            j["needed"][names[k]] = orNull(eval::examplesNeeded(diff[k].standardError, n, effect));
    }
    if (a.size() == b.size() && a.size() > 1) {
        nlohmann::ordered_json perSeed = nlohmann::ordered_json::array();
        for (size_t k = 0; k < a.size(); ++k) {
            const std::vector<double> x = metricsOf(a, aAt, all, {k}), y = metricsOf(b, bAt, all, {k});
            nlohmann::ordered_json one;
            for (size_t m = 0; m < names.size(); ++m)
                one[names[m]] = y[m] - x[m];
            perSeed.push_back(one);
        }
        j["per_seed"] = perSeed;
    }
    if (!args.has("markdown")) {
        std::cout << j.dump() << std::endl;
        return kExitOk;
    }
    const std::string la = args.value("label-a", "A"), lb = args.value("label-b", "B");
    std::cout << "| metric | " << la << " | " << lb << " | " << lb << " − " << la
              << " [95 % interval] | detectable at 80 % power";
    if (args.has("examples"))
        std::cout << " (on " << static_cast<size_t>(targetExamples) << ")";
    if (args.has("effect"))
        std::cout << " | examples for " << fixed3(effect);
    if (j.contains("per_seed"))
        std::cout << " | per seed";
    std::cout << " |\n|---|---:|---:|---|---:";
    if (args.has("effect"))
        std::cout << "|---:";
    if (j.contains("per_seed"))
        std::cout << "|---";
    std::cout << "|\n";
    for (size_t k = 0; k < names.size(); ++k) {
        const bool varies = diff[k].standardError > 0.0;
        std::cout << "| " << names[k] << " | " << fixed3(aAll[k]) << " | " << fixed3(bAll[k]) << " | "
                  << signed3(diff[k].estimate) << " [" << signed3(diff[k].low) << ", " << signed3(diff[k].high) << "] | "
                  << (varies ? fixed3(eval::detectableEffect(diff[k].standardError, n,
                                                             args.has("examples") ? static_cast<size_t>(targetExamples) : n))
                             : std::string("no variation"));
        if (args.has("effect")) {
            std::ostringstream needed;
            needed << std::fixed << std::setprecision(0) << eval::examplesNeeded(diff[k].standardError, n, effect);
            std::cout << " | " << (varies ? needed.str() : std::string("no variation"));
        }
        if (j.contains("per_seed")) {
            std::cout << " | ";
            for (size_t s = 0; s < a.size(); ++s)
                std::cout << (s ? ", " : "") << signed3(j["per_seed"][s][names[k]].get<double>());
        }
        std::cout << " |\n";
    }
    std::cout << "\n" << n << " examples joined";
    if (dropped)
        std::cout << " (" << dropped << " predictions of other examples left out)";
    std::cout << "; " << la << ": " << a.size() << " file(s), " << lb << ": " << b.size() << " file(s); " << resamples
              << " paired resamples.\n";
    return kExitOk;
}

} // namespace

int evalCommand(const std::vector<std::string> &args)
{
    return dispatch("eval", kEvalHelp, args,
                    {{"score", score}, {"run", evalRunCommand}, {"failures", failures}, {"compare", compare}});
}

} // namespace rwb::cli
