// rwb task: a user's own task from data, no code (tasks/user/, docs/your-task.md).
#include "cli.h"
#include "commands.h"

#include "data/jsonl.h"
#include "task/catalog.h"
#include "tasks/user/taskdraft.h"
#include "tasks/user/usertask.h"
#include "tokenizer/promptformat.h"
#include "tokenizer/tokenizer.h"
#include "util/jsoncomments.h"

#include <filesystem>
#include <fstream>
#include <iostream>

namespace rwb::cli {

namespace {

const char *const kTaskHelp = R"(rwb task — your own task from data, described in JSON (docs/your-task.md)

Subcommands:
  init   a first description guessed from a sample of your records, each guess commented
  check  reads every record of a dataset with a description; shows the first prompts as the model sees them
Run "rwb task <subcommand> --help" for its options.
)";

const char *const kInitHelp = R"(rwb task init — a first task description from your records

Usage: rwb task init --data FILE.jsonl --name NAME [--out NAME.task.json] [--force]

Reads up to 50 records and guesses the record shape (TRL, verl, OpenRLHF), the prompt and
reference columns, how to find the answer in a reply and a metric; writes the description
with a // comment on each choice (default NAME.task.json beside the data) and prints the
guesses. A reward config names it as "task": "NAME.task.json". Refuses to overwrite a file
without --force.
)";

const char *const kCheckHelp = R"(rwb task check — a dataset read with a task description

Usage: rwb task check --task NAME.task.json --data FILE.jsonl [--model DIR] [--show N]

Reads every record; a bad one is reported as FILE:LINE: field: reason (exit 2). Prints the
first N (default 2) prompts as the model will see them (the model folder's prompt format;
plain without --model) with their reference, and a summary line as JSON.
)";

int init(const std::vector<std::string> &argv)
{
    const Args args(argv, {{"data", "name", "out"}, {"force", "help"}});
    if (args.has("help")) {
        std::cout << kInitHelp;
        return kExitOk;
    }
    const std::string data = args.required("data");
    const std::string name = args.required("name");
    const std::string out =
        args.value("out", (std::filesystem::path(data).parent_path() / (name + ".task.json")).string());
    if (std::filesystem::exists(out) && !args.has("force"))
        throw UsageError{out + " exists; pass --force to overwrite it"};
    const task::TaskDraft draft = task::draftTaskDescription(data, name);
    // The draft must read back as a description: a name that is not one fails here.
    task::parseTaskDescription(util::withoutJsonComments(draft.description), out,
                               std::filesystem::absolute(out).parent_path().string());
    writeOutput(out, [&](std::ostream &o) { o << draft.description; });
    for (const task::TaskDraft::Note &n : draft.notes)
        std::cerr << "  " << n.text << "\n";
    std::cerr << "wrote " << out << "; check it with: rwb task check --task " << out << " --data " << data << "\n";
    return kExitOk;
}

int check(const std::vector<std::string> &argv)
{
    const Args args(argv, {{"task", "data", "model", "show"}, {"help"}});
    if (args.has("help")) {
        std::cout << kCheckHelp;
        return kExitOk;
    }
    const std::string path = args.required("task");
    const std::string text = util::withoutJsonComments(data::readTextFile(path));
    const task::UserTask t(task::parseTaskDescription(
        text, path, std::filesystem::absolute(path).parent_path().string()));
    const std::vector<task::Record> records = t.read(args.required("data"), {});
    tokenizer::PromptFormat format;
    if (args.has("model")) {
        const auto tok = tokenizer::loadTokenizer(args.value("model"));
        format = tokenizer::PromptFormat::forModel(args.value("model"), *tok);
    }
    const size_t show = static_cast<size_t>(args.number("show", 2));
    for (size_t i = 0; i < records.size() && i < show; ++i) {
        const task::Example &e = *records[i].example;
        std::cout << "── record " << e.id() << " (line " << records[i].line << ")\n"
                  << t.prompt(e, format, false) << "\n── reference: " << e.goldText()
                  << "\n── SFT target: " << t.sftTarget(e, false) << "\n\n";
    }
    nlohmann::ordered_json summary;
    summary["task"] = t.name();
    summary["records"] = records.size();
    summary["headline_metric"] = t.headlineMetric();
    std::cout << summary.dump() << "\n";
    return kExitOk;
}

} // namespace

int taskCommand(const std::vector<std::string> &args)
{
    return dispatch("task", kTaskHelp, args, {{"init", init}, {"check", check}});
}

} // namespace rwb::cli
