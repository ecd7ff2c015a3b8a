#include "cli.h"
#include "commands.h"

#include "tasks/synthesizers.h"

#include "task/catalog.h"
#include "reward/rewardconfig.h"
#include "tasks/extraction/emailstats.h"
#include "tasks/extraction/extractionrecord.h"
#include "tokenizer/promptformat.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

namespace rwb::cli {

namespace {

const char *const kDataHelp = R"(rwb data — datasets

Subcommands:
  synth   generate a task's synthetic dataset (JSONL): e-mails, legal questions,
          multi-hop questions
  stats   length distribution and variety of an extraction dataset
  corpus  prompt + answer text of datasets, to train a tokenizer on
Run "rwb data <subcommand> --help" for its options.
)";

const char *const kSynthHelp = R"(rwb data synth — synthetic datasets

Usage: rwb data synth --task company_extraction --n N --seed S --split train|val|test
                      [--out F.jsonl] [--max-chars C] [--reasoning templated|none]
       rwb data synth --task legal_qa --n N --seed S --split train|val|test
                      [--out Q.jsonl] [--corpus-out CORPUS.jsonl]
                      [--statutes K] [--min-sections A] [--max-sections B]
       rwb data synth --task multihop --n N --seed S --split train|val|test
                      [--out Q.jsonl] [--corpus-out KB.jsonl] [--people P]
                      [--organizations O] [--cities C] [--countries K]

  --task T        company_extraction (fictional business e-mails), legal_qa (a
                  fictional body of Japanese law and questions about it) or multihop (a
                  fictional knowledge base and 2–4-hop questions over it)
  --n N           how many e-mails / questions (0 or more)
  --seed S        an unsigned 64-bit integer; the same seed, split and N give the same bytes
  --split X       train, val or test: company names (company_extraction), statutes
                  (legal_qa) or the entities questions start from (multihop) of one
                  split never occur in another
  --out F.jsonl   where to write (default: standard output); written to F.jsonl.part
                  first and renamed when complete
  --max-chars C   company_extraction: longest email_text in characters (default 600, at least 300)
  --reasoning R   company_extraction: templated adds "reasoning", a thinking trace that
                  rules out the recipient's company and third parties and names the
                  sender's company as written (or says it is not), for SFT with "thinking":
                  true (<thinking>reasoning</thinking><answer>gold</answer>); none (default)
  --corpus-out C  legal_qa: also write the corpus (all statutes of every split)
  --statutes K    legal_qa: statutes, 3 to 20 (default 16)
  --min-sections A, --max-sections B
                  legal_qa: sections per statute, 12 to 30 (default 15 and 24)
  --corpus-out KB multihop: also write the knowledge base, a passage per entity
  --people P, --organizations O, --cities C, --countries K
                  multihop: entities of each kind (default 160, 48, 36, 8)

company_extraction lines, ids "<split>-000001" …: {"id", "task", "sender_email",
"email_text", "gold"}; the gold is the most detailed form of the sender's company name in
the e-mail, as written (the first paper's rule), or 不明 (about 15 % of e-mails).
legal_qa lines: {"id", "task", "question", "reference_answer", "law_codes", "facts",
"kind", "pattern", "statutes", "reasoning", "slot_values"}; corpus lines: {"id" (the
law code), "title", "text", "meta"}.
multihop lines: {"id", "task", "question", "answer", "hops", "chain": [{"entity",
"relation", "subquery", "passage", "subanswer", "value"}], "gold_passages", "split"};
knowledge-base lines: {"id": "kb-P017", "title", "text", "meta": {"kind", "entity",
"name"}}.
See docs/data.md and docs/data-legal-qa.md.
)";

const char *const kStatsHelp = R"(rwb data stats — figures about an extraction dataset

Usage: rwb data stats --input F.jsonl [--skip-invalid]

  --input F.jsonl   lines {"id", "sender_email", "email_text", "gold", …} ("completion" optional)
  --skip-invalid    report malformed lines on stderr and go on

Prints one JSON object: count, the share of gold 不明, email_text length in characters
and in lines (min, median, p90, max, mean; nearest-rank quantiles), the shares of e-mails
with forwarded / original-message blocks, quoted lines (">"), ㈱ / (株), full-width letters
and English company names, the golds' marker forms, and the ids of golds that break the
first paper's gold rule (not the most detailed form, or not in the e-mail).
)";

double rounded(double v)
{
    return std::round(v * 10000.0) / 10000.0;
}

int synth(const std::vector<std::string> &argv)
{
    // The options every generator takes, then each one's own.
    const std::vector<std::string> shared = {"task", "n", "seed", "split", "out"};
    std::vector<std::string> valued = shared;
    for (const Synthesizer &s : synthesizers())
        for (const std::string &o : s.options)
            if (std::find(valued.begin(), valued.end(), o) == valued.end())
                valued.push_back(o);
    const Args args(argv, {valued, {"help"}});
    if (args.has("help")) {
        std::cout << kSynthHelp;
        return kExitOk;
    }
    const std::string task = args.required("task");
    const Synthesizer *synthesizer = nullptr;
    std::vector<std::string> names;
    for (const Synthesizer &s : synthesizers()) {
        names.push_back(s.task);
        if (s.task == task)
            synthesizer = &s;
    }
    if (!synthesizer)
        throw UsageError{"unknown task \"" + task + "\" (allowed: " + reward::joinNames(names) + ")"};
    for (const std::string &o : valued)
        if (args.has(o) && std::find(shared.begin(), shared.end(), o) == shared.end() &&
            std::find(synthesizer->options.begin(), synthesizer->options.end(), o) == synthesizer->options.end())
            throw UsageError{"--" + o + " is not for --task " + task};
    const uint64_t n = parseCount("n", args.required("n"), 100'000'000);
    const uint64_t seed = parseCount("seed", args.required("seed"), UINT64_MAX);
    const std::string splitWord = args.required("split");
    const std::optional<data::DataSplit> split = data::parseSplit(splitWord);
    if (!split)
        throw UsageError{"unknown split \"" + splitWord + "\" (allowed: train, val, test)"};
    return synthesizer->run(args, n, seed, *split);
}

int stats(const std::vector<std::string> &argv)
{
    const Args args(argv, {{"input"}, {"skip-invalid", "help"}});
    if (args.has("help")) {
        std::cout << kStatsHelp;
        return kExitOk;
    }
    const std::string inputPath = args.required("input");
    data::ExtractionReadOptions options;
    options.skipInvalid = args.has("skip-invalid");
    options.requireCompletion = false;
    const data::ExtractionReadResult input = data::readExtractionJsonl(inputPath, options);
    for (const data::InputError &e : input.skipped)
        std::cerr << e.toString() << " (skipped)" << std::endl;

    data::EmailStats acc;
    for (const data::ExtractionRecord &r : input.records)
        acc.add(r);
    const data::EmailStatsSummary s = acc.summary();
    auto quantiles = [](const data::EmailStatsSummary::Quantiles &q) {
        nlohmann::ordered_json j;
        j["min"] = q.min;
        j["median"] = q.median;
        j["p90"] = q.p90;
        j["max"] = q.max;
        j["mean"] = std::round(q.mean * 10.0) / 10.0;
        return j;
    };
    nlohmann::ordered_json j;
    j["count"] = s.count;
    j["unknown"] = s.unknown;
    j["unknown_share"] = rounded(s.count ? static_cast<double>(s.unknown) / static_cast<double>(s.count) : 0.0);
    j["chars"] = quantiles(s.chars);
    j["lines"] = quantiles(s.lines);
    j["forwarded_share"] = rounded(s.forwardedShare);
    j["quoted_share"] = rounded(s.quotedShare);
    j["circled_kabu_share"] = rounded(s.circledKabuShare);
    j["paren_kabu_share"] = rounded(s.parenKabuShare);
    j["abbreviated_marker_share"] = rounded(s.abbreviatedMarkerShare);
    j["full_width_latin_share"] = rounded(s.fullWidthLatinShare);
    j["english_name_share"] = rounded(s.englishNameShare);
    nlohmann::ordered_json gold;
    gold["full_marker_share"] = rounded(s.goldFullMarkerShare);
    gold["abbreviated_marker_share"] = rounded(s.goldAbbreviatedMarkerShare);
    gold["no_marker_share"] = rounded(s.goldNoMarkerShare);
    gold["marker_after_share"] = rounded(s.goldMarkerAfterShare);
    j["gold"] = gold;
    j["gold_rule_violations"] = s.goldRuleViolations.size();
    nlohmann::ordered_json ids = nlohmann::ordered_json::array();
    for (size_t i = 0; i < s.goldRuleViolations.size() && i < 20; ++i)
        ids.push_back(s.goldRuleViolations[i]);
    j["gold_rule_violation_ids"] = ids;
    std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << std::endl;
    return kExitOk;
}

} // namespace

namespace {

const char *const kCorpusHelp = R"(rwb data corpus — text to train a tokenizer on

Usage: rwb data corpus --input F.jsonl [--input more.jsonl …] --out corpus.txt [--task T] [--thinking]

Writes, for every line of the datasets, the task's prompt in the plain format followed by
its SFT target, as the model will see them in SFT and GRPO, so that a tokenizer trained
on it covers the template, the inputs and the answers. --task: company_extraction
(default; the first paper's prompt, fig. 2 or fig. 3 with --thinking, then the gold
answer), legal_qa (the question and its retrieved sections, then the D.2 output) or chat
(the messages in the plain chat rendering, then the reply: e.g. rwb judge data lines),
or a task description file of your own task (NAME.task.json, docs/your-task.md).
Written to corpus.txt.part first and renamed when complete.
)";

int corpus(const std::vector<std::string> &argv)
{
    const Args args(argv, {{"input", "out", "task"}, {"thinking", "help"}});
    if (args.has("help")) {
        std::cout << kCorpusHelp;
        return kExitOk;
    }
    const std::string taskName = args.value("task", ""); // "": the catalog's default task
    // A user's task description file (NAME.task.json) is read and installed.
    const task::Task *task = reward::isTaskDescriptionPath(taskName)
                                 ? &task::Catalog::builtin().get(taskName, "--task", "task")
                                 : task::Catalog::builtin().find(taskName);
    if (!task)
        throw UsageError{"unknown task \"" + taskName + "\" (allowed: " +
                         reward::joinNames(task::Catalog::builtin().names()) + ")"};
    if (args.values("input").empty())
        throw UsageError{"--input is required"};
    const std::string out = args.required("out");
    const bool thinking = args.has("thinking");
    const tokenizer::PromptFormat plain;
    size_t lines = 0;
    data::writeFileAtomically(out, [&](std::ostream &file) {
        for (const std::string &input : args.values("input"))
            for (const task::Record &r : task->read(input, task::ReadOptions{})) {
                file << task->prompt(*r.example, plain, thinking) << task->sftTarget(*r.example, thinking) << "\n\n";
                ++lines;
            }
    });
    nlohmann::ordered_json j;
    j["out"] = out;
    j["examples"] = lines;
    std::cout << j.dump() << std::endl;
    return kExitOk;
}

} // namespace

int dataCommand(const std::vector<std::string> &args)
{
    return dispatch("data", kDataHelp, args, {{"synth", synth}, {"stats", stats}, {"corpus", corpus}});
}

} // namespace rwb::cli
