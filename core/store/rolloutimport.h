#pragma once

// Rollouts of other trainers read from their dumps into a run of the store (`rwb import`):
// verl's rollout JSONL (`trainer.rollout_data_dir`, one `{step}.jsonl` per step), TRL's
// completions table (the rows GRPOTrainer logs with `log_completions`, as JSONL, CSV or a
// wandb table's JSON; its own files are parquet, which no Debian library reads) and
// OpenRLHF's dumped samples (`{input, output, reward}`). The run is of kind "external", so
// curves, groups, the browser and the failure explorer work on it. Without Qt or libtorch.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rwb::store {

class RunStore;

enum class DumpFormat { Auto, Verl, Trl, OpenRlhf };

// "verl", "trl", "openrlhf" ("auto" for Auto).
const char *dumpFormatName(DumpFormat format);
// The inverse; nullopt for a name it does not know.
std::optional<DumpFormat> parseDumpFormat(std::string_view name);

struct ImportOptions {
    DumpFormat format = DumpFormat::Auto; // Auto: from the first record's fields
    std::string runName;                  // "" → the first path's file or folder name
    std::string task;                     // recorded with the run ("" none)
    // > 0: each step's rollouts form groups of this many, in the order of the dump (a
    // trainer writes a prompt's G samples together); 0: a step's rollouts of the same
    // prompt text (or the same "uid" / "group" field, where the dump has one) form a group.
    int groupSize = 0;
    // TRL: the reward functions and their weights (TRL's reward_weights), for the total its
    // table does not log. Empty: every numeric column is a reward function of weight 1
    // (TRL's default); given: only the columns it names make the total, and the others
    // are shown as components of weight 0. A name no column has is an error.
    std::map<std::string, double> weights;
    bool includeEval = false; // TRL: also rows whose "mode" is "eval"
};

// One field of the dump and what it became.
struct FieldMapping {
    std::string field;
    std::string target; // "prompt", "completion", "reward component", "details", …
    int64_t rows = 0;   // how many rows had it
};

struct ImportReport {
    DumpFormat format = DumpFormat::Auto;
    int64_t runId = 0;
    std::string runName;
    std::vector<std::string> files;   // read, in step order
    std::vector<std::string> skipped; // "path: why" (a repeat of the file before, parquet, eval rows …)
    int64_t steps = 0;
    int64_t rollouts = 0;
    int64_t groups = 0;
    std::vector<FieldMapping> mapped;   // fields read into the store's columns
    std::vector<FieldMapping> unmapped; // fields kept only in each rollout's details
    std::vector<std::string> computed;  // what the dump lacks and the import worked out
};

// Reads every file first (a path may be a file or a folder, searched recursively for
// .jsonl, .json and .csv, in the order of the step number in their names), and only then
// writes a new run of kind External with one step per step of the dump. A file of the
// wrong form throws data::InputException naming the file, line and field, and leaves the
// store as it was. Rows that repeat the previous file's rows exactly (TRL logs the same
// generation batch again when several optimizer steps share it) are skipped and reported.
// A failure while writing marks the run failed and throws store::StoreError.
ImportReport importRollouts(RunStore &store, const std::vector<std::string> &paths, const ImportOptions &options);

} // namespace rwb::store
