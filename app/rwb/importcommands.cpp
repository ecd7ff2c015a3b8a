// rwb import: another trainer's rollout dump (verl, TRL, OpenRLHF, prime-rl, NeMo-RL) into a
// run of the store.
#include "cli.h"
#include "commands.h"
#include "stopsignals.h"

#include "data/jsonl.h"
#include "store/rolloutimport.h"
#include "store/runstore.h"
#include "store/storeerror.h"

#include <cstdlib>
#include <iostream>
#include <optional>

namespace rwb::cli {

namespace {

const char *const kImportHelp = R"HELP(rwb import — another trainer's rollouts into a run of the store

Usage: rwb import --input PATH [--input PATH …] --store runs.sqlite [options]

Reads the rollouts verl, TRL, OpenRLHF, prime-rl or NeMo-RL dumped and writes them to a new run of kind
"external": curves, groups, the rollout browser and the failure explorer then work on it.
Everything is read and checked first; a file of the wrong form is reported with its line
and field, and the store is left as it was.

  --input PATH      a dump file, or a folder searched for .jsonl, .json, .csv and .parquet
                    files (one per step, in the order of the number in their names, or
                    of a step_N folder inside it); repeat it for several
  --store FILE      the run store (created when missing)
  --format F        auto (default: from the first record's fields), verl, trl, openrlhf,
                    prime-rl or nemo-rl
                      verl      trainer.rollout_data_dir: {step}.jsonl with input, output,
                                gts, score, step and the reward function's extra keys
                      trl       GRPOTrainer's completions table (log_completions):
                                <output_dir>/completions/completions_{step:05d}.parquet, or
                                the same as JSONL or CSV, or a wandb table's JSON: step,
                                prompt, completion, one column per reward function,
                                advantage. Steps its trainer_state.json (checkpoint-N/)
                                logs an evaluation at hold eval rows
                      openrlhf  dumped samples: {input, output, reward} (batch_inference),
                                with step, label and group where present; the wandb table
                                of train/generated_samples (global_step, text, reward);
                                or its agent executor's results as JSON lines
                                (observation_tokens, action_ranges, rollout_log_probs, …)
                      prime-rl  rollouts/step_N/train/effective/traces.jsonl: episodes with
                                their traces' tokens, log-probs and advantages (a folder's
                                all/ files beside effective/ and eval/ are skipped)
                      nemo-rl   train_data_step{N}.jsonl: content, rewards, token_ids,
                                token_loss_mask, advantages, generation_logprobs,
                                prev_logprobs
  --run-name NAME   the run's name (default: the first input's file or folder name)
  --task NAME       the task the rollouts are for, recorded with the run
  --group-size G    each step's rollouts form groups of G in the order of the dump
                    (default: the rollouts of a step with the same prompt, or the same
                    "uid" / "group" field, form a group)
  --weights SPEC    TRL: the reward functions' weights for the total its table does not
                    log, "name=w,name=w" (default: every reward column weighs 1)
  --include-eval    TRL: also import the eval rows (the tables of evaluation steps, and
                    rows whose "mode" is "eval"); prime-rl: also the eval episodes
  --tokenizer DIR   the policy's tokenizer folder (tokenizer.json or tokenizer.model),
                    recorded as the run's "model": the token view shows the tokens' text
                    (without it, their ids); it also decodes completions a dump holds only
                    as token ids (OpenRLHF's agent executor)
  --python PATH     the Python that reads parquet files, which needs pyarrow 14.0.1 or
                    later, or an older one with pyarrow_hotfix (default: $RWB_PYTHON,
                    else python3 on PATH; the one TRL ran in has pyarrow)

SIGTERM or Ctrl-C stops it: before the first write nothing is written; while it writes, after
the step in flight, and the run begun is deleted again (exit code 1).

Prints a JSON report: the run's id, the files read, steps, rollouts and groups, which
fields became what ("mapped"), which were kept only in each rollout's details
("unmapped"), what the import worked out itself ("computed") and what it skipped.
)HELP";

std::map<std::string, double> parseWeights(const std::string &spec)
{
    std::map<std::string, double> out;
    size_t start = 0;
    while (start <= spec.size()) {
        const size_t comma = std::min(spec.find(',', start), spec.size());
        const std::string item = spec.substr(start, comma - start);
        const size_t eq = item.find('=');
        if (eq == std::string::npos || eq == 0)
            throw UsageError{"--weights: \"" + item + "\" is not name=weight"};
        const std::string value = item.substr(eq + 1);
        char *end = nullptr;
        const double w = std::strtod(value.c_str(), &end);
        if (value.empty() || end != value.c_str() + value.size())
            throw UsageError{"--weights: the weight of \"" + item.substr(0, eq) + "\" is not a number"};
        out[item.substr(0, eq)] = w;
        start = comma + 1;
    }
    return out;
}

nlohmann::ordered_json mappingsJson(const std::vector<store::FieldMapping> &mappings)
{
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const store::FieldMapping &m : mappings)
        out.push_back({{"field", m.field}, {"to", m.target}, {"rows", m.rows}});
    return out;
}

} // namespace

int importCommand(const std::vector<std::string> &argv)
{
    return guarded("import", [&] {
        const Args args(argv, {{"input", "store", "format", "run-name", "task", "group-size", "weights", "python", "tokenizer"},
                               {"include-eval", "help"}});
        if (args.has("help")) {
            std::cout << kImportHelp;
            return kExitOk;
        }
        store::ImportOptions options;
        const std::string format = args.value("format", "auto");
        const auto parsed = store::parseDumpFormat(format);
        if (!parsed)
            throw UsageError{"--format: \"" + format + "\" is not auto, verl, trl, openrlhf, prime-rl or nemo-rl"};
        options.format = *parsed;
        options.runName = args.value("run-name");
        options.task = args.value("task");
        const double groupSize = args.number("group-size", 0);
        if (groupSize < 0 || groupSize != static_cast<int>(groupSize))
            throw UsageError{"--group-size must be a whole number of 1 or more"};
        options.groupSize = static_cast<int>(groupSize);
        if (args.has("weights"))
            options.weights = parseWeights(args.value("weights"));
        options.includeEval = args.has("include-eval");
        options.python = args.value("python");
        options.tokenizerDir = args.value("tokenizer");
        const std::vector<std::string> &inputs = args.values("input");
        if (inputs.empty())
            throw UsageError{"--input is required (a dump file or folder)"};
        const std::string storePath = args.required("store");

        // importRollouts reads every file before its first write: a bad dump leaves the
        // store as it was.
        std::unique_ptr<store::RunStore> runStore;
        try {
            runStore = std::make_unique<store::RunStore>(storePath);
        } catch (const store::StoreError &e) {
            throw data::InputException({storePath, 0, std::string("cannot open the run store: ") + e.what()});
        }
        // Progress counts the files read, then the steps written (a dump holds about a step
        // per file: the total is twice the files until the steps are known). While reading,
        // SIGTERM and Ctrl-C end the command at once (nothing is written yet); while
        // writing, they stop it after the step in flight and the run begun is deleted.
        std::optional<StopSignals> stop;
        int64_t files = 0;
        options.progress = [&](store::ImportPhase phase, int64_t done, int64_t total) {
            if (phase == store::ImportPhase::Reading) {
                files = total;
                if (jsonProgress())
                    printJsonProgress(done, 2 * total, "reading the dump");
                return true;
            }
            if (!stop)
                stop.emplace();
            if (jsonProgress())
                printJsonProgress(files + done, files + total, "writing step " + std::to_string(done) + " of "
                                                                   + std::to_string(total));
            return !stop->requested();
        };
        store::ImportReport report;
        try {
            report = store::importRollouts(*runStore, inputs, options);
        } catch (const store::ImportCancelled &e) {
            printError(std::string("import: ") + (stop ? stop->lastSignal() : "stopped") + ": " + e.what());
            return kExitFailure;
        }

        nlohmann::ordered_json j;
        j["run_id"] = report.runId;
        j["run_name"] = report.runName;
        j["store"] = storePath;
        j["format"] = store::dumpFormatName(report.format);
        j["files"] = report.files;
        j["steps"] = report.steps;
        j["rollouts"] = report.rollouts;
        j["groups"] = report.groups;
        j["mapped"] = mappingsJson(report.mapped);
        j["unmapped"] = mappingsJson(report.unmapped);
        j["computed"] = report.computed;
        j["skipped"] = report.skipped;
        // Indented for a person; on one line for a program that runs the command with
        // RWB_PROGRESS=json (it reads the last line).
        std::cout << j.dump(jsonProgress() ? -1 : 2, ' ', false, nlohmann::json::error_handler_t::replace) << std::endl;
        return kExitOk;
    });
}

} // namespace rwb::cli
