// rwb prm pairs / judge / export / import / agreement: preference pairs of sibling steps
// from the MCTS trees, their labels (tree, LLM judge, people, imports) and how far those
// agree (core/prm), and the process reward model: train, score (core/train).
#include "cli.h"
#include "commands.h"
#include "stopsignals.h"

#include "data/jsonl.h"
#include "tasks/multihop/multihop.h"
#include "eval/bootstrap.h"
#include "judge/judgeclient.h"
#include "prm/agreement.h"
#include "prm/pairjudge.h"
#include "prm/preference.h"
#include "tasks/multihop/multihopperturbedpairs.h"
#include "tasks/multihop/multihopreferencejudge.h"
#include "store/runstore.h"
#include "tasks/multihop/multihopformat.h"
#include "train/processrewardmodel.h"
#include "train/prmtraining.h"
#include "train/rft.h"
#include "util/duration.h"
#include "util/boundedjson.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <set>
#include <sstream>

namespace rwb::cli {

namespace {

const char *const kPrmHelp = R"HELP(rwb prm — preference pairs of reasoning steps and the process reward model (ProRAG §3.2–3.4)

Subcommands:
  pairs      sibling steps of an MCTS run's trees as preference pairs, with the tree's labels
  judge      label a pair set with an LLM judge (A / B / tie with a reason)
  export     a pair set's labelled pairs as JSONL: DPO ({prompt, chosen, rejected}) or TRL stepwise
  import     DPO or stepwise JSONL into a pair set, with its labels
  synth      pairs at scale from gold chains: each gold step against a spoiled one (DPO JSONL)
  label      a person's label of one pair, from a script (the annotation view is the usual way)
  agreement  agreement between the tree, the judges and the people on a pair set (κ, α)
  train      train the process reward model on a pair set's labels
  score      the PRM's score of every step of trajectories
  rft        PRM-filtered rejection-sampling fine-tuning (§3.3)
  table      EM and F1 with bootstrap intervals of several models' predictions (the ablation)

Run "rwb prm <subcommand> --help" for its options. Documentation: docs/prm.md
)HELP";

const char *const kPairsHelp = R"HELP(rwb prm pairs — preference pairs from an MCTS run's trees

Usage: rwb prm pairs --store runs.sqlite [--run ID] [--set NAME] [--margin 0.2]
                     [--min-visits 1] [--max-per-parent 2] [--seed 1]

For every state of every tree with two or more children: pairs of sibling steps with
different texts, both visited at least --min-visits times, whose values Q differ by at
least --margin; the largest differences first, at most --max-per-parent per state. Steps
A and B are in a random order (--seed). Each pair gets the tree's label (the step with
the larger Q). --run: the MCTS run (default: the store's last); --set: the pair set's
name (default "mcts run ID"). Running it again adds only pairs the set lacks.
Prints {"set", "trees", "pairs", "added", "tree_labels"}.
)HELP";

const char *const kJudgeHelp = R"HELP(rwb prm judge — an LLM judge's labels for a pair set

Usage: rwb prm judge --store runs.sqlite --set NAME (--judge JUDGE.json | --reference-judge Q.jsonl)
                     [--both-orders] [--limit N] [--relabel] [--quiet]

Asks the judge JUDGE.json names (a judge object, or a reward config with "judge";
docs/judges.md) which of each pair's steps is the better next step given the question
and the history, and stores its choice (A, B or tie) and reason as the pair's judge
label (annotator: the judge's model). Pairs the judge labelled before are skipped unless
--relabel. --both-orders asks twice, the steps swapped the second time; a verdict that
follows the position becomes a tie (LLM judges favour a position). --reference-judge: a
judge that knows the gold chains of the synthetic question set Q.jsonl answers instead
(annotator "reference"; it stands in for an LLM judge where none can be reached; docs/prm.md).
A call that fails or a
reply that cannot be read labels nothing and is counted. Prints {"pairs", "labelled",
"failed", "order_dependent", "a", "b", "tie", "tree_agreement", "tree_kappa", "seconds"}.
)HELP";

const char *const kExportHelp = R"HELP(rwb prm export — a pair set's labelled pairs as JSONL

Usage: rwb prm export --store runs.sqlite --set NAME --out PAIRS.jsonl
                      [--format dpo|stepwise] [--sources human,judge,tree,import]

One label per pair: from the first of --sources that labelled it (people: their majority;
where they tie, the next source). Ties and unlabelled pairs are left out.
  dpo       {"prompt", "chosen", "rejected"} (TRL's preference form) per pair
  stepwise  {"prompt", "completions": [step], "labels": [true|false]} (TRL's stepwise
            supervision), two lines per pair
Both add "question", "history", the steps' values and visits, "source", "annotator" and
"reason", so that `rwb prm import` reads the file back whole. Prints {"pairs", "lines", "out"}.
)HELP";

const char *const kImportHelp = R"HELP(rwb prm import — DPO or stepwise JSONL into a pair set

Usage: rwb prm import --store runs.sqlite --input PAIRS.jsonl --set NAME

Reads either form, line by line (docs/prm.md): DPO lines are one pair each; stepwise lines
pair up when they share the prompt and all completions but the last, one labelled true
and one false. The chosen step's label is stored with the line's "source" and
"annotator" (default: import, the file's name). A line that does not parse stops the
command before anything is written, naming the file, line and field. Prints {"set",
"lines", "pairs", "added", "unpaired"}.
)HELP";

const char *const kSynthHelp = R"HELP(rwb prm synth — preference pairs made from gold chains, for training a PRM at scale

Usage: rwb prm synth --questions Q.jsonl --out PAIRS.jsonl [--per-step 2] [--seed 1]
                     [--limit N]

For every question of Q.jsonl (multi-hop lines with their chains' retrieved passages:
rwb retrieve annotate --chain) and every step of its gold trajectory, the gold step against
up to --per-step spoiled versions of it, given the gold steps before it:
  other_relation  the sub-answer names another relation's value of the entity looked up
                  (stated in its passage: grounded, but wrong)
  wrong_value     the sub-answer names another entity's value of the relation (not in the
                  passages: a hallucination)
  early_answer    an <answer> before the last hop, naming what is known so far
  wrong_answer    the final <answer> names another value of the last relation
The values come from every chain of Q.jsonl. A pair is kept only when the reference judge
(rwb prm judge --reference-judge) gives the gold step more points; its reason is the
label's. Writes DPO lines (rwb prm import reads them, source "import", annotator
"perturbed gold") and prints {"questions", "steps", "pairs", "kinds": {kind: pairs}}.
A PRM trained on them is checked on held-out questions before it is used (docs/prm.md).
)HELP";

const char *const kAgreementHelp = R"HELP(rwb prm agreement — how far the labels of a pair set agree

Usage: rwb prm agreement --store runs.sqlite --set NAME [--json]

For every two raters (the tree, each judge, each person, and "humans (majority)" when two
or more people labelled): the pairs both labelled, the share with the same label and
Cohen's κ; Krippendorff's α (nominal: A, B, tie) among the people and among everyone.
Skips count nowhere. --json: one JSON object instead of the table.
)HELP";

const char *const kTrainHelp = R"HELP(rwb prm train — the process reward model on a pair set's labels

Usage: rwb prm train --config prm.json [--quiet]

The config (docs/prm.md): model (the SFT policy, or a PRM folder to go on), output, store,
set, and sources (["human", "judge", "tree", "import"]: each pair's label comes from the
first that labelled it), source_weights ({"human": 2, "judge": 1, "tree": 1}), ties
("drop", or "equal": a term pulling the two scores together), holdout (0.2 of the
questions), lora, learning_rate (1e-4), epochs (2), batch_size (8 pairs), max_length, seed.
Loss: eq. 4, −log σ(R(chosen) − R(rejected)), weighted by the label's source.
A progress line on stderr; one JSON object on stdout: {"output", "train_pairs",
"held_out_pairs", "dropped_ties", "labels": {source: n}, "steps", "final_loss",
"held_out": {source: {"pairs", "before", "after"}}, "train_accuracy", "seconds"}.
)HELP";

const char *const kScoreHelp = R"HELP(rwb prm score — the PRM's score of every step of trajectories

Usage: rwb prm score --prm DIR --input TRAJECTORIES.jsonl [--out SCORES.jsonl] [--batch 8]

Each input line has "question" and "completion" (a trajectory in the step format: the
lines `rwb eval run` writes for multi-hop questions, or any JSONL with those fields; "id"
is kept). The completion is cut into step blocks (each ends with </subanswer> or
</answer>) and one forward pass scores them all. One line per input line:
{"id", "steps": [{"step", "score"}], "min", "mean", "last"}. A line without those fields
stops the command, naming the file, line and field.
)HELP";

const char *const kLabelHelp = R"HELP(rwb prm label — a person's label of one pair

Usage: rwb prm label --store runs.sqlite --pair ID --annotator NAME --choice a|b|tie|skip
                     [--reason TEXT]
       rwb prm label --store runs.sqlite --pair ID --annotator NAME --remove

Writes (or replaces, or removes) NAME's label of pair ID, as the annotation view would:
for labels given outside the workbench (a spreadsheet, a chat tool). Prints {"pair",
"annotator", "choice", "created"}.
)HELP";

const char *const kRftHelp = R"HELP(rwb prm rft — PRM-filtered rejection-sampling fine-tuning (ProRAG §3.3)

Usage: rwb prm rft --config rft.json [--quiet]

The config (docs/prm.md): policy (the SFT policy), prm (rwb prm train's folder),
questions (training questions with gold answers), index (their knowledge base's BM25
index), output; samples (4 per question), temperature, max_completion_length; answer
("em", or "f1" with min_f1), threshold (0: the PRM's raw score must be above it), filter
("step": steps below the threshold stay as context only; "trajectory": every step must
clear), sft (SFT's keys for the fine-tuning), eval_questions and eval_index (greedy EM / F1
before and after). The kept trajectories are written as SFT lines (data_output, default
OUTPUT.rft.jsonl). A progress line on stderr; one JSON object on stdout: {"questions",
"sampled", "right", "kept", "duplicates", "dropped_by_prm", "kept_steps",
"context_steps", "questions_kept", "mean_step_score", "before": {"em", "f1"}, "after":
{"em", "f1"}, "eval_examples", "sft_steps", "seconds"}.
)HELP";

const char *const kTableHelp = R"HELP(rwb prm table — answer EM / F1 of several models on the same questions

Usage: rwb prm table --row NAME=PREDICTIONS.jsonl [--row …] [--baseline NAME] [--markdown]
                     [--resamples 2000] [--seed 1]

Each PREDICTIONS file is what `rwb eval run --task multihop --output` writes (the
questions with the model's "completion"). For every row: the questions, answer EM and F1
(tasks/multihop/multihopformat.h), F1's 95 % bootstrap interval, and F1's difference from the
baseline row (default the first) with its paired bootstrap interval (the same questions
resampled together: eval/bootstrap.h). The rows must hold the same questions (by id).
)HELP";

std::vector<prm::Source> parseSources(const std::string &list)
{
    std::vector<prm::Source> out;
    std::stringstream in(list);
    std::string item;
    while (std::getline(in, item, ',')) {
        prm::Source s;
        if (!prm::parseSource(item, s))
            throw UsageError{"--sources: \"" + item + "\" is not human, judge, tree or import"};
        out.push_back(s);
    }
    if (out.empty())
        throw UsageError{"--sources names no source"};
    return out;
}

std::string requireStore(const Args &args)
{
    const std::string path = args.required("store");
    if (!std::filesystem::exists(path))
        throw data::InputException({path, 0, "no such run store"});
    return path;
}

std::vector<prm::StepPair> requirePairs(const store::RunStore &store, const std::string &set)
{
    std::vector<prm::StepPair> pairs = store.pairs(set);
    if (pairs.empty()) {
        std::string known;
        for (const auto &s : store.pairSets())
            known += (known.empty() ? "" : ", ") + ("\"" + s.name + "\"");
        throw data::InputException({store.path(), 0,
                                    "no pair set \"" + set + "\" (" + (known.empty() ? "none yet: rwb prm pairs makes them"
                                                                                      : "sets: " + known) +
                                        ")"});
    }
    return pairs;
}

nlohmann::ordered_json number(double v)
{
    return std::isfinite(v) ? nlohmann::ordered_json(v) : nlohmann::ordered_json(nullptr);
}

int pairs(const std::vector<std::string> &argv)
{
    const Args args(argv, {{"store", "run", "set", "margin", "min-visits", "max-per-parent", "seed"}, {"help"}});
    if (args.has("help")) {
        std::cout << kPairsHelp;
        return kExitOk;
    }
    const std::string path = requireStore(args);
    store::RunStore store(path);
    int64_t runId = static_cast<int64_t>(args.number("run", 0));
    if (runId == 0)
        runId = store.lastRun(store::RunKind::Mcts);
    if (runId == 0)
        throw data::InputException({path, 0, "no MCTS run (rwb mcts run writes them)"});
    const store::RunInfo info = store.run(runId);
    if (info.kind != "mcts")
        throw data::InputException({path, 0, "run " + std::to_string(runId) + " is a " + info.kind + " run, not an MCTS run"});
    prm::PairOptions o;
    o.margin = args.number("margin", o.margin);
    o.minVisits = static_cast<int>(args.number("min-visits", o.minVisits));
    o.maxPerParent = static_cast<int>(args.number("max-per-parent", o.maxPerParent));
    o.seed = static_cast<uint64_t>(args.number("seed", 1));
    if (o.margin < 0 || o.minVisits < 0 || o.maxPerParent < 1)
        throw UsageError{"--margin and --min-visits must be ≥ 0 and --max-per-parent ≥ 1"};
    const std::string set = args.value("set", "mcts run " + std::to_string(runId));
    std::vector<prm::StepPair> all;
    const std::vector<mcts::TreeSummary> trees = store.mctsTrees(runId);
    for (const mcts::TreeSummary &t : trees) {
        std::vector<prm::StepPair> ps = prm::siblingPairs(store.mctsTree(t.treeId), o, t.treeId, set);
        all.insert(all.end(), std::make_move_iterator(ps.begin()), std::make_move_iterator(ps.end()));
    }
    const size_t added = store.addPairs(all);
    std::vector<prm::Label> labels;
    for (const prm::StepPair &p : all)
        labels.push_back(prm::treeLabel(p, o.margin));
    store.setLabels(labels);
    std::cout << nlohmann::ordered_json{{"set", set},         {"trees", trees.size()},      {"pairs", all.size()},
                                        {"added", added},     {"tree_labels", labels.size()}}
                     .dump()
              << std::endl;
    return kExitOk;
}

int judgeSet(const std::vector<std::string> &argv)
{
    const Args args(argv, {{"store", "set", "judge", "reference-judge", "limit"}, {"both-orders", "relabel", "quiet", "help"}});
    if (args.has("help")) {
        std::cout << kJudgeHelp;
        return kExitOk;
    }
    const auto start = std::chrono::steady_clock::now();
    const std::string path = requireStore(args);
    const std::string set = args.required("set");
    store::RunStore store(path);
    const std::vector<prm::StepPair> all = requirePairs(store, set);
    if (args.has("judge") == args.has("reference-judge"))
        throw UsageError{"give --judge JUDGE.json or --reference-judge QUESTIONS.jsonl"};
    std::unique_ptr<judge::JudgeClient> owned;
    if (args.has("judge")) {
        owned = std::make_unique<judge::JudgeClient>(loadJudge(args.value("judge")));
    } else {
        judge::JudgeOptions o;
        o.server.url = "reference";
        owned = std::make_unique<judge::JudgeClient>(
            o, std::make_shared<prm::ReferencePairJudge>(args.value("reference-judge")));
    }
    const judge::JudgeClient &client = *owned;
    const std::string model = client.backend().model();
    std::set<int64_t> done;
    if (!args.has("relabel"))
        for (const prm::Label &l : store.labels(set))
            if (l.source == prm::Source::Judge && l.annotator == model && l.choice != prm::Choice::Skip)
                done.insert(l.pairId);
    std::vector<prm::StepPair> unjudged; // the pairs this judge has not labelled yet
    const size_t limit = static_cast<size_t>(args.number("limit", 0));
    for (const prm::StepPair &p : all)
        if (!done.count(p.id) && (limit == 0 || unjudged.size() < limit))
            unjudged.push_back(p);
    prm::PairJudgeOptions o;
    o.bothOrders = args.has("both-orders");
    const bool quiet = args.has("quiet");
    size_t failed = 0, orderDependent = 0, counts[3] = {0, 0, 0};
    std::string firstError;
    // Ctrl-C and SIGTERM stop after the batch in flight; the pairs judged so far are stored.
    StopSignals signals;
    const std::vector<prm::JudgedPair> judged = prm::judgePairs(client, unjudged, o, 16, [&](size_t d, size_t total) {
        if (signals.takeRequest()) {
            std::fprintf(stderr, "\n%s: stopping after the batch in flight\n", signals.lastSignal());
            return false;
        }
        if (jsonProgress()) {
            printJsonProgress(static_cast<int64_t>(d), static_cast<int64_t>(total), "pairs");
        } else if (!quiet) {
            std::fprintf(stderr, "\rprm judge: %zu/%zu pairs  %s   ", d, total,
                         util::formatDuration(std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
                                                  .count())
                             .c_str());
            std::fflush(stderr);
        }
        return true;
    });
    if (!quiet)
        std::fprintf(stderr, "\n");
    std::vector<prm::Label> labels;
    for (const prm::JudgedPair &j : judged) {
        if (!j.ok) {
            ++failed;
            if (firstError.empty())
                firstError = "pair " + std::to_string(j.label.pairId) + ": " + j.error;
            continue;
        }
        orderDependent += j.orderDependent ? 1 : 0;
        ++counts[static_cast<int>(j.label.choice)];
        labels.push_back(j.label);
    }
    store.setLabels(labels);
    // How the judge's labels of this set agree with the tree's.
    const std::vector<prm::Label> stored = store.labels(set);
    std::map<int64_t, prm::Choice> tree, judgeLabels;
    for (const prm::Label &l : stored) {
        if (l.source == prm::Source::Tree)
            tree[l.pairId] = l.choice;
        else if (l.source == prm::Source::Judge && l.annotator == model)
            judgeLabels[l.pairId] = l.choice;
    }
    const prm::PairwiseAgreement a = prm::pairwiseAgreement(judgeLabels, tree);
    if (failed > 0)
        printError(std::to_string(failed) + " of " + std::to_string(judged.size()) +
                   " pairs got no label (the first: " + firstError + ")");
    std::cout << nlohmann::ordered_json{{"pairs", judged.size()},
                                        {"labelled", labels.size()},
                                        {"failed", failed},
                                        {"order_dependent", orderDependent},
                                        {"a", counts[0]},
                                        {"b", counts[1]},
                                        {"tie", counts[2]},
                                        {"tree_agreement", number(a.observed)},
                                        {"tree_kappa", number(a.kappa)},
                                        {"seconds", std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                                                                  start)
                                                        .count()}}
                     .dump()
              << std::endl;
    return failed == judged.size() && !judged.empty() ? kExitFailure : kExitOk;
}

int exportSet(const std::vector<std::string> &argv)
{
    const Args args(argv, {{"store", "set", "out", "format", "sources"}, {"help"}});
    if (args.has("help")) {
        std::cout << kExportHelp;
        return kExitOk;
    }
    const std::string path = requireStore(args);
    const store::RunStore store(path, store::RunStore::OpenMode::ReadOnly);
    const std::string set = args.required("set");
    const std::string format = args.value("format", "dpo");
    if (format != "dpo" && format != "stepwise")
        throw UsageError{"--format is dpo or stepwise, not \"" + format + "\""};
    const std::vector<prm::StepPair> pairs = requirePairs(store, set);
    const std::map<int64_t, prm::Label> chosen =
        prm::resolveLabels(store.labels(set), parseSources(args.value("sources", "human,judge,tree,import")));
    size_t written = 0, lines = 0;
    const std::string out = args.required("out");
    writeOutput(out, [&](std::ostream &o) {
        for (const prm::StepPair &p : pairs) {
            const auto it = chosen.find(p.id);
            if (it == chosen.end())
                continue;
            const std::vector<std::string> ls =
                format == "dpo" ? std::vector<std::string>{prm::dpoLine(p, it->second)} : prm::stepwiseLines(p, it->second);
            if (ls.empty() || ls.front().empty())
                continue;
            ++written;
            for (const std::string &l : ls) {
                o << l << "\n";
                ++lines;
            }
        }
    });
    std::cout << nlohmann::ordered_json{{"pairs", written}, {"lines", lines}, {"out", out}}.dump() << std::endl;
    return kExitOk;
}

int importSet(const std::vector<std::string> &argv)
{
    const Args args(argv, {{"store", "input", "set"}, {"help"}});
    if (args.has("help")) {
        std::cout << kImportHelp;
        return kExitOk;
    }
    const std::string set = args.required("set");
    prm::ImportedPairs in = prm::readPreferenceFile(args.required("input"), set); // all read before anything is written
    store::RunStore store(args.required("store"));
    std::vector<std::string> firstSteps;
    for (const prm::StepPair &p : in.pairs)
        firstSteps.push_back(p.stepA);
    const size_t added = store.addPairs(in.pairs);
    for (size_t i = 0; i < in.pairs.size(); ++i) {
        in.labels[i].pairId = in.pairs[i].id;
        if (in.pairs[i].stepA != firstSteps[i]) { // the store holds it the other way round
            prm::Choice &c = in.labels[i].choice;
            c = c == prm::Choice::A ? prm::Choice::B : c == prm::Choice::B ? prm::Choice::A : c;
        }
    }
    store.setLabels(in.labels);
    std::cout << nlohmann::ordered_json{{"set", set},
                                        {"lines", in.lines},
                                        {"pairs", in.pairs.size()},
                                        {"added", added},
                                        {"unpaired", in.unpaired}}
                     .dump()
              << std::endl;
    return kExitOk;
}

int synthPairs(const std::vector<std::string> &argv)
{
    const Args args(argv, {{"questions", "out", "per-step", "seed", "limit"}, {"help"}});
    if (args.has("help")) {
        std::cout << kSynthHelp;
        return kExitOk;
    }
    const std::string path = args.required("questions");
    const int perStep = static_cast<int>(args.number("per-step", 2));
    if (perStep < 1 || perStep > 3)
        throw UsageError{"--per-step must be 1, 2 or 3"};
    const auto seed = static_cast<uint64_t>(args.number("seed", 1));
    const auto limit = static_cast<size_t>(args.number("limit", 0));
    std::vector<data::MultihopQuestion> questions = data::readMultihopQuestions(path);
    if (questions.empty())
        throw data::InputException({path, 0, "no questions"});
    const prm::PerturbedPairMaker maker(questions);
    if (limit > 0 && questions.size() > limit)
        questions.resize(limit);
    std::map<std::string, size_t> kinds;
    size_t pairs = 0, steps = 0;
    const std::string out = args.required("out");
    writeOutput(out, [&](std::ostream &o) {
        for (size_t i = 0; i < questions.size(); ++i) {
            std::vector<prm::PerturbedPair> made;
            try {
                made = maker.pairs(questions[i], seed, i, perStep);
            } catch (const std::invalid_argument &e) {
                throw data::InputException({path, questions[i].line, e.what()});
            }
            steps += questions[i].chain.size() + 1;
            for (const prm::PerturbedPair &p : made) {
                o << prm::dpoLine(p.pair, p.label) << "\n";
                ++kinds[p.kind];
                ++pairs;
            }
        }
    });
    nlohmann::ordered_json j{{"questions", questions.size()}, {"steps", steps}, {"pairs", pairs}};
    j["kinds"] = kinds;
    j["out"] = out;
    std::cout << j.dump() << std::endl;
    return kExitOk;
}

int labelPair(const std::vector<std::string> &argv)
{
    const Args args(argv, {{"store", "pair", "annotator", "choice", "reason"}, {"remove", "help"}});
    if (args.has("help")) {
        std::cout << kLabelHelp;
        return kExitOk;
    }
    const std::string path = requireStore(args);
    store::RunStore store(path);
    const int64_t pair = static_cast<int64_t>(args.number("pair", 0));
    const std::string annotator = args.required("annotator");
    if (args.has("remove")) {
        const bool removed = store.removeLabel(pair, prm::Source::Human, annotator);
        std::cout << nlohmann::ordered_json{{"pair", pair}, {"annotator", annotator}, {"removed", removed}}.dump()
                  << std::endl;
        return kExitOk;
    }
    prm::Label l;
    l.pairId = pair;
    l.source = prm::Source::Human;
    l.annotator = annotator;
    if (!prm::parseChoice(args.required("choice"), l.choice))
        throw UsageError{"--choice is a, b, tie or skip, not \"" + args.value("choice") + "\""};
    l.reason = args.value("reason");
    std::vector<prm::Label> ls{l};
    store.setLabels(ls);
    std::cout << nlohmann::ordered_json{{"pair", pair},
                                        {"annotator", annotator},
                                        {"choice", prm::choiceName(l.choice)},
                                        {"created", ls.front().created}}
                     .dump()
              << std::endl;
    return kExitOk;
}

int agreement(const std::vector<std::string> &argv)
{
    const Args args(argv, {{"store", "set"}, {"json", "help"}});
    if (args.has("help")) {
        std::cout << kAgreementHelp;
        return kExitOk;
    }
    const std::string path = requireStore(args);
    const store::RunStore store(path, store::RunStore::OpenMode::ReadOnly);
    const std::string set = args.required("set");
    const std::vector<prm::StepPair> pairs = requirePairs(store, set);
    const prm::AgreementTable t = prm::agreementTable(store.labels(set));
    if (args.has("json")) {
        nlohmann::ordered_json j;
        j["set"] = set;
        j["pairs"] = pairs.size();
        j["raters"] = t.raters;
        nlohmann::ordered_json m = nlohmann::ordered_json::array();
        for (size_t a = 0; a < t.raters.size(); ++a)
            for (size_t b = a + 1; b < t.raters.size(); ++b) {
                const prm::PairwiseAgreement &x = t.matrix[a][b];
                m.push_back({{"raters", {t.raters[a], t.raters[b]}},
                             {"n", x.n},
                             {"agreement", number(x.observed)},
                             {"kappa", number(x.kappa)}});
            }
        j["pairwise"] = m;
        j["alpha_humans"] = number(t.alphaHumans);
        j["human_units"] = t.humanUnits;
        j["alpha_all"] = number(t.alphaAll);
        j["all_units"] = t.allUnits;
        std::cout << j.dump() << std::endl;
        return kExitOk;
    }
    std::printf("pair set \"%s\": %zu pairs\n", set.c_str(), pairs.size());
    for (const std::string &r : t.raters)
        std::printf("  %-28s %zu labels\n", r.c_str(), t.labels.at(r).size());
    std::printf("\n%-28s %-28s %6s %9s %7s\n", "rater", "rater", "pairs", "agreement", "kappa");
    const auto cell = [](double v) {
        char b[16];
        std::snprintf(b, sizeof b, std::isfinite(v) ? "%.3f" : "–", v);
        return std::string(b);
    };
    for (size_t a = 0; a < t.raters.size(); ++a)
        for (size_t b = a + 1; b < t.raters.size(); ++b) {
            const prm::PairwiseAgreement &x = t.matrix[a][b];
            std::printf("%-28s %-28s %6zu %9s %7s\n", t.raters[a].c_str(), t.raters[b].c_str(), x.n,
                        cell(x.observed).c_str(), cell(x.kappa).c_str());
        }
    std::printf("\nKrippendorff's alpha: people %s (%zu pairs labelled by two or more), everyone %s (%zu pairs)\n",
                cell(t.alphaHumans).c_str(), t.humanUnits, cell(t.alphaAll).c_str(), t.allUnits);
    return kExitOk;
}

int trainPrm(const std::vector<std::string> &argv)
{
    const Args args(argv, {{"config"}, {"quiet", "help"}});
    if (args.has("help")) {
        std::cout << kTrainHelp;
        return kExitOk;
    }
    const train::PrmTrainConfig config = train::loadPrmTrainConfig(args.required("config"));
    const bool quiet = args.has("quiet");
    // Ctrl-C and SIGTERM stop after the step in flight; the model trained so far is
    // measured and saved.
    StopSignals signals;
    const train::PrmTrainResult r = train::runPrmTraining(config, [&](const train::PrmTrainProgress &p) {
        if (signals.takeRequest()) {
            std::fprintf(stderr, "\n%s: stopping after the step in flight\n", signals.lastSignal());
            return false;
        }
        if (jsonProgress()) {
            nlohmann::ordered_json metrics{{"loss", p.loss}, {"batch_accuracy", p.accuracy}, {"learning_rate", p.learningRate}};
            for (const train::PairAccuracy &a : p.heldOut)
                metrics["held_out/" + a.source] = a.accuracy();
            char detail[96];
            std::snprintf(detail, sizeof detail, "loss %.4f, batch accuracy %.2f", p.loss, p.accuracy);
            printJsonProgress(p.step, p.totalSteps, detail, metrics);
        } else if (!quiet) {
            std::fprintf(stderr, "\rprm step %d/%d  loss %.4f  batch accuracy %.2f  lr %.2e  %s   ", p.step, p.totalSteps,
                         p.loss, p.accuracy, p.learningRate, util::formatDuration(p.elapsedSeconds).c_str());
            std::fflush(stderr);
        }
        return true;
    });
    if (!quiet)
        std::fprintf(stderr, "\n");
    nlohmann::ordered_json held = nlohmann::ordered_json::object();
    for (const train::PairAccuracy &a : r.heldOutAfter) {
        held[a.source] = {{"pairs", a.pairs}, {"after", a.accuracy()}};
        for (const train::PairAccuracy &b : r.heldOutBefore)
            if (b.source == a.source)
                held[a.source]["before"] = b.accuracy();
    }
    nlohmann::ordered_json j;
    j["output"] = config.output;
    j["train_pairs"] = r.trainPairs;
    j["held_out_pairs"] = r.heldOutPairs;
    j["dropped_ties"] = r.droppedTies;
    j["skipped_too_long"] = r.skippedTooLong;
    j["labels"] = r.labelsBySource;
    j["steps"] = r.steps;
    j["final_loss"] = r.finalLoss;
    j["held_out"] = held;
    j["train_accuracy"] = r.trainAfter.accuracy();
    j["precision"] = r.precision;
    j["seconds"] = r.seconds;
    std::cout << j.dump() << std::endl;
    return kExitOk;
}

int scorePrm(const std::vector<std::string> &argv)
{
    const Args args(argv, {{"prm", "input", "out", "batch"}, {"help"}});
    if (args.has("help")) {
        std::cout << kScoreHelp;
        return kExitOk;
    }
    const std::string input = args.required("input");
    // Read every line before loading the model: a bad line stops the command at once.
    struct Line {
        std::string id, question;
        std::vector<std::string> steps;
    };
    std::vector<Line> lines;
    data::forEachLine(data::readTextFile(input), [&](size_t n, std::string_view text) {
        const nlohmann::json j = util::parseJsonOrDiscarded(text);
        if (!j.is_object())
            throw data::InputException({input, n, "not a JSON object"});
        for (const char *f : {"question", "completion"})
            if (!j.contains(f) || !j[f].is_string())
                throw data::InputException({input, n, std::string("field \"") + f + "\" missing or not a string"});
        Line l;
        l.id = j.contains("id") ? (j["id"].is_string() ? j["id"].get<std::string>() : j["id"].dump()) : std::to_string(n);
        l.question = j["question"];
        l.steps = task::stepBlocks(j["completion"].get<std::string>());
        lines.push_back(std::move(l));
        return true;
    });
    const std::unique_ptr<train::ProcessRewardModel> prm = train::ProcessRewardModel::load(args.required("prm"));
    std::vector<train::PrmInput> inputs;
    for (const Line &l : lines)
        inputs.push_back(prm->input(l.question, l.steps));
    const std::vector<std::vector<double>> scores = prm->score(inputs, static_cast<int>(args.number("batch", 8)));
    writeOutput(args.value("out"), [&](std::ostream &o) {
        for (size_t i = 0; i < lines.size(); ++i) {
            nlohmann::ordered_json j;
            j["id"] = lines[i].id;
            nlohmann::ordered_json steps = nlohmann::ordered_json::array();
            double sum = 0, least = INFINITY;
            for (size_t k = 0; k < lines[i].steps.size(); ++k) {
                steps.push_back({{"step", lines[i].steps[k]}, {"score", scores[i][k]}});
                sum += scores[i][k];
                least = std::min(least, scores[i][k]);
            }
            const size_t n = lines[i].steps.size();
            j["steps"] = steps;
            j["min"] = n ? nlohmann::ordered_json(least) : nlohmann::ordered_json(nullptr);
            j["mean"] = n ? nlohmann::ordered_json(sum / static_cast<double>(n)) : nlohmann::ordered_json(nullptr);
            j["last"] = n ? nlohmann::ordered_json(scores[i].back()) : nlohmann::ordered_json(nullptr);
            o << j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
        }
    });
    return kExitOk;
}

int rftCommand(const std::vector<std::string> &argv)
{
    const Args args(argv, {{"config"}, {"quiet", "help"}});
    if (args.has("help")) {
        std::cout << kRftHelp;
        return kExitOk;
    }
    const train::RftConfig config = train::loadRftConfig(args.required("config"));
    const bool quiet = args.has("quiet");
    // Ctrl-C and SIGTERM: a stop while sampling trains on what was kept so far; while
    // training, saves what was trained.
    StopSignals signals;
    bool stopping = false;
    const train::RftResult r = train::runRft(config, [&](const train::RftProgress &p) {
        if (signals.takeRequest()) {
            std::fprintf(stderr, "\n%s: stopping\n", signals.lastSignal());
            stopping = true;
        }
        if (stopping)
            return false;
        if (jsonProgress()) {
            printJsonProgress(static_cast<int64_t>(p.done), static_cast<int64_t>(p.total), p.phase,
                              nlohmann::ordered_json(), {{"phase", p.phase}});
        } else if (!quiet) {
            std::fprintf(stderr, "\rprm rft: %-9s %zu/%zu  %s   ", p.phase.c_str(), p.done, p.total,
                         util::formatDuration(p.elapsedSeconds).c_str());
            std::fflush(stderr);
        }
        return true;
    });
    if (!quiet)
        std::fprintf(stderr, "\n");
    nlohmann::ordered_json j;
    j["questions"] = r.questions;
    j["sampled"] = r.sampled;
    j["right"] = r.right;
    j["kept"] = r.kept;
    j["duplicates"] = r.duplicates;
    j["dropped_by_prm"] = r.droppedByPrm;
    j["kept_steps"] = r.keptSteps;
    j["context_steps"] = r.contextSteps;
    j["questions_kept"] = r.questionsKept;
    j["mean_step_score"] = r.meanStepScore;
    if (r.evaluated) {
        j["before"] = {{"em", r.emBefore}, {"f1", r.f1Before}};
        j["after"] = {{"em", r.emAfter}, {"f1", r.f1After}};
        j["eval_examples"] = r.evalExamples;
    }
    j["sft_steps"] = r.sft.steps;
    j["data"] = config.dataOutput;
    j["output"] = config.output;
    j["seconds"] = r.seconds;
    std::cout << j.dump() << std::endl;
    return kExitOk;
}

int tablePrm(const std::vector<std::string> &argv)
{
    const Args args(argv, {{"row", "baseline", "resamples", "seed"}, {"markdown", "help"}});
    if (args.has("help")) {
        std::cout << kTableHelp;
        return kExitOk;
    }
    struct Row {
        std::string name, path;
        std::map<std::string, std::pair<double, double>> byId; // id → (EM, F1)
    };
    std::vector<Row> rows;
    for (const std::string &spec : args.values("row")) {
        const size_t eq = spec.find('=');
        if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size())
            throw UsageError{"--row takes NAME=PREDICTIONS.jsonl, not \"" + spec + "\""};
        Row r{spec.substr(0, eq), spec.substr(eq + 1), {}};
        for (const data::MultihopQuestion &q : data::readMultihopQuestions(r.path)) {
            if (!q.hasCompletion)
                throw data::InputException({r.path, q.line, "missing field \"completion\" (rwb eval run --output writes it)"});
            const task::Trajectory t = task::parseTrajectory(q.completion);
            const std::string answer = t.answer.value_or(std::string());
            r.byId[q.id] = {t.answer ? task::exactMatch(answer, q.answer) : 0.0, t.answer ? task::answerF1(answer, q.answer) : 0.0};
        }
        rows.push_back(std::move(r));
    }
    if (rows.empty())
        throw UsageError{"give at least one --row NAME=PREDICTIONS.jsonl"};
    size_t base = 0;
    if (args.has("baseline")) {
        const auto it = std::find_if(rows.begin(), rows.end(), [&](const Row &r) { return r.name == args.value("baseline"); });
        if (it == rows.end())
            throw UsageError{"--baseline names no --row: \"" + args.value("baseline") + "\""};
        base = static_cast<size_t>(it - rows.begin());
    }
    for (const Row &r : rows)
        for (const auto &[id, v] : rows[base].byId)
            if (!r.byId.count(id))
                throw data::InputException({r.path, 0, "has no prediction for question " + id + " (in " + rows[base].path + ")"});
    const int resamples = static_cast<int>(args.number("resamples", 2000));
    const uint64_t seed = static_cast<uint64_t>(args.number("seed", 1));
    const bool md = args.has("markdown");
    const size_t n = rows[base].byId.size();
    std::printf("%zu questions; F1 with its 95 %% bootstrap interval, and its difference from %s (paired)\n\n", n,
                rows[base].name.c_str());
    if (md)
        std::printf("| model | EM | F1 | F1 95 %% CI | ΔF1 vs %s | ΔF1 95 %% CI |\n|---|---:|---:|---:|---:|---:|\n",
                    rows[base].name.c_str());
    else
        std::printf("%-28s %6s %6s %17s %8s %17s\n", "model", "EM", "F1", "F1 95% CI", "dF1", "dF1 95% CI");
    for (const Row &r : rows) {
        std::vector<double> em, f1, baseF1, zeros;
        for (const auto &[id, v] : rows[base].byId) {
            em.push_back(r.byId.at(id).first);
            f1.push_back(r.byId.at(id).second);
            baseF1.push_back(v.second);
            zeros.push_back(0.0);
        }
        const auto mean = [](const std::vector<double> &v) {
            double s = 0;
            for (double x : v)
                s += x;
            return v.empty() ? 0.0 : s / static_cast<double>(v.size());
        };
        const eval::Interval own = eval::pairedMeanDifference(zeros, f1, resamples, seed);
        const eval::Interval diff = eval::pairedMeanDifference(baseF1, f1, resamples, seed);
        char ci[64], dci[64];
        std::snprintf(ci, sizeof ci, "[%.3f, %.3f]", own.low, own.high);
        std::snprintf(dci, sizeof dci, "[%+.3f, %+.3f]", diff.low, diff.high);
        if (md)
            std::printf("| %s | %.3f | %.3f | %s | %+.3f | %s |\n", r.name.c_str(), mean(em), mean(f1), ci, diff.estimate, dci);
        else
            std::printf("%-28s %6.3f %6.3f %17s %+8.3f %17s\n", r.name.c_str(), mean(em), mean(f1), ci, diff.estimate, dci);
    }
    return kExitOk;
}

} // namespace

int prmCommand(const std::vector<std::string> &args)
{
    return dispatch("prm", kPrmHelp, args,
                    {{"pairs", pairs},
                     {"judge", judgeSet},
                     {"export", exportSet},
                     {"import", importSet},
                     {"synth", synthPairs},
                     {"label", labelPair},
                     {"agreement", agreement},
                     {"train", trainPrm},
                     {"score", scorePrm},
                     {"rft", rftCommand},
                     {"table", tablePrm}});
}

} // namespace rwb::cli
