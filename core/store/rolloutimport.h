#pragma once

// Rollouts of other trainers read from their dumps into a run of the store (`rwb import`):
// verl's rollout JSONL (`trainer.rollout_data_dir`, one `{step}.jsonl` per step), TRL's
// completions table (the rows GRPOTrainer logs with `log_completions`: its own
// `completions/completions_{step:05d}.parquet`, read through a Python with pyarrow, or the
// same as JSONL or CSV, or a wandb table's JSON),
// OpenRLHF's samples (batch_inference's `{input, output, reward}`, the wandb table of
// `generated_samples` it logs, and its agent executor's result dicts dumped as JSON lines),
// prime-rl's episodes (`rollouts/step_N/train/effective/traces.jsonl`) and NeMo-RL's
// `train_data_step{N}.jsonl`. Per-token token ids, log-probs and advantages, where a dump
// has them, go to the rollout's token columns. The run is of kind "external", so curves,
// groups, the browser, the token view and the failure explorer work on it. Without Qt or
// libtorch.

#include "store/externalrun.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace rwb::store {

class RunStore;

enum class DumpFormat { Auto, Verl, Trl, OpenRlhf, PrimeRl, NemoRl };

// "verl", "trl", "openrlhf", "prime-rl", "nemo-rl" ("auto" for Auto).
const char *dumpFormatName(DumpFormat format);
// The inverse; nullopt for a name it does not know.
std::optional<DumpFormat> parseDumpFormat(std::string_view name);

// What an import is doing when it reports progress.
enum class ImportPhase { Reading, Writing };

// Thrown by importRollouts when ImportOptions::progress asked it to stop.
class ImportCancelled : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

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
    // TRL: also the eval rows: the tables of the steps its trainer_state.json logs an
    // evaluation at (TRL writes an evaluation's rows over that step's table; the state is
    // looked for beside the completions folder, in checkpoint-N/), and rows whose "mode"
    // is "eval" (a table a user wrote). prime-rl: also eval episodes.
    bool includeEval = false;
    // The Python that reads parquet files (it needs pyarrow): "python3" on PATH, or a path;
    // "" → $RWB_PYTHON, else "python3". Started only when there is a parquet file.
    std::string python;
    // A folder with the policy's tokenizer (tokenizer.json or tokenizer.model), recorded as
    // the run config's "model" (made absolute) so that the token view decodes the token
    // ids; where a dump has token ids but no completion text (OpenRLHF's agent executor)
    // the completion is decoded with it. "" none. A folder it cannot read is an error.
    std::string tokenizerDir;
    // Called on the calling thread: while reading, after each file (`done` of `total`
    // files); while writing, before the first step and after each (`done` of `total`
    // steps). Returning false stops the import: while reading, before anything is written;
    // while writing, the run begun is deleted again (RunStore::deleteRun), so that no
    // part of the dump is left in the store. importRollouts then throws ImportCancelled.
    // Unset: the import runs to its end. previewImport never calls it.
    std::function<bool(ImportPhase phase, int64_t done, int64_t total)> progress;
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
    std::vector<std::string> skipped; // "path: why" (a repeat of the file before, eval rows …)
    int64_t steps = 0;
    int64_t rollouts = 0;
    int64_t groups = 0;
    std::vector<FieldMapping> mapped;   // fields read into the store's columns
    std::vector<FieldMapping> unmapped; // fields kept only in each rollout's details
    std::vector<std::string> computed;  // what the dump lacks and the import worked out
};

// Reads every file first (a path may be a file or a folder, searched recursively for
// .jsonl, .json, .csv and .parquet, in the order of the step number in their names, or of the
// `step_N` folder they are in inside the folder searched, or of prime-rl's layout for a file
// named), and only then writes a new run of kind External with one
// step per step of the dump. A file of the wrong form throws data::InputException naming
// the file, line and field, and leaves the store as it was; so does a tokenizer folder
// that cannot be read, a parquet file when no Python with a safe pyarrow can be started
// (the message says what to install or name), a table past store::ParquetLimits and a
// file too big for memory. Rows that repeat the previous file's rows exactly (TRL logs the
// same generation batch again when several optimizer steps share it), rows an earlier
// wandb table of OpenRLHF's already held, prime-rl's `all` files beside an `effective` one
// and its eval episodes (unless includeEval) are skipped and reported. A failure while
// writing marks the run failed and throws store::StoreError. ImportOptions::progress may
// stop it (ImportCancelled), leaving no run behind.
ImportReport importRollouts(RunStore &store, const std::vector<std::string> &paths, const ImportOptions &options);

// One rollout as the import reads it, for a preview.
struct ImportPreviewRow {
    std::string file;
    size_t line = 0;    // its line in the file (0 for a row of a table or an array: `where`)
    std::string where;  // "row 3", "record 2" where a line says nothing ("" otherwise)
    int64_t step = 0;
    ExternalSample sample;
};

struct ImportPreview {
    // As importRollouts would report the rows read: the format found, the files read, the
    // mapping of their fields, what would be worked out and skipped; runId 0, runName the
    // name the run would get, and steps, rollouts and groups counted over the rows read.
    ImportReport report;
    std::vector<std::string> allFiles; // every file the import would read, in step order
    std::vector<std::string> notRead;  // "path: why", files the preview leaves to the import
    std::vector<ImportPreviewRow> rows; // the first rows, in the order read (at most maxRows)
    bool partial = false;               // rows or files past the limits were not read
};

// What importRollouts would make of the first rows of a dump, without a store: the same
// detection, reading and mapping code, bounded for a dialog on the GUI thread. Reads the
// files in the import's order and stops once `maxRows` rollouts are read: of a JSON-lines
// or CSV file only the first `maxRows` records, a .json file (one JSON value: a table, an
// array) only when it is at most 8 MiB, and no parquet file (reading one starts Python:
// listed in notRead; the import maps it). Throws as importRollouts does for a file of the
// wrong form among the rows read, a bad tokenizer folder, an unknown weight's name, and
// "no rollouts to import" only when every file was read. Any thread; touches no store.
ImportPreview previewImport(const std::vector<std::string> &paths, const ImportOptions &options, size_t maxRows = 200);

} // namespace rwb::store
