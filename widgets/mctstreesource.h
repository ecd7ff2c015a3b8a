#pragma once

#include "mcts/searchrecord.h"

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace rwb::widgets {

// Where the MCTS tree viewer gets its search records: a list of the trees there are
// (their summaries, cheap enough to poll once a second while a search writes more) and
// one tree's full record on demand. The viewer holds a source through a shared_ptr and
// calls it on the GUI thread only, so an implementation needs no locking of its own.
//
// Both calls may throw data::InputException (bad input: the message names the file or
// row and the JSON path) or std::runtime_error (the source cannot be read at all); the
// viewer shows what() and keeps what it showed. A source whose trees are still being
// written may say so through TreeSummary::complete and grow between calls: treeIds must
// stay the same for the same tree from one call to the next.
class MctsTreeSource {
public:
    virtual ~MctsTreeSource() = default;

    // The trees, in the order the list shows them before it is sorted.
    virtual std::vector<mcts::TreeSummary> trees() const = 0;
    // The record of tree `treeId` (one of those trees() gave).
    virtual mcts::SearchRecord record(int64_t treeId) const = 0;
    // What trees() left out because it could not be read, one message each ("file:line:
    // reason"); empty when nothing was. A source that cannot skip (one file, one store)
    // throws from trees() instead.
    virtual std::vector<std::string> problems() const { return {}; }
};

// Records in files: one record JSON file (its treeId is 0), or a folder whose *.json files
// are a record each (treeId = the file's index in name order; files added later with
// later names keep the ids of those before them). Reads with mcts::readRecordFile.
//
// A folder's summaries are cached per file and read again only when the file's size or
// modification time changes, so polling a folder of finished searches costs a directory
// listing. A file of a folder that does not read is left out of trees() and named in
// problems(); a single file that does not read makes trees() throw. A file being
// rewritten while it is read simply fails this time and reads at the next call.
class MctsFileSource : public MctsTreeSource {
public:
    // `path`: a record file or a folder of them. Does not read anything yet.
    explicit MctsFileSource(std::string path);

    std::vector<mcts::TreeSummary> trees() const override;
    // Throws std::out_of_range for a treeId trees() did not give (or no longer gives).
    mcts::SearchRecord record(int64_t treeId) const override;
    std::vector<std::string> problems() const override { return m_problems; }

    const std::string &path() const { return m_path; }
    // The file tree `treeId` was read from ("" when unknown).
    std::string fileOf(int64_t treeId) const;

private:
    struct Cached {
        std::filesystem::file_time_type modified;
        uintmax_t size = 0;
        bool ok = false;
        mcts::TreeSummary summary;
        std::string problem;
    };
    // The files trees() lists: the file itself, or the folder's *.json in name order.
    // Throws std::runtime_error when the path is neither.
    std::vector<std::string> listFiles() const;

    std::string m_path;
    mutable std::vector<std::string> m_files; // by treeId, as the last trees() saw them
    mutable std::map<std::string, Cached> m_cache;
    mutable std::vector<std::string> m_problems;
};

} // namespace rwb::widgets

namespace rwb::widgets {

class StoreDocument;

// The trees of one MCTS run in a run store (`rwb mcts run` writes each question's tree
// there as it grows), read through the store's document (its read-only connection):
// readers never block the search that writes, and every call reads what the writer had
// committed when it began, so Follow sees a growing tree (TreeSummary::complete false
// until the tree's last simulation). trees() throws store::StoreError for a file that is
// not a run store, an unknown run or a run that is not an MCTS run.
class MctsStoreSource : public MctsTreeSource {
public:
    MctsStoreSource(std::shared_ptr<StoreDocument> document, int64_t runId);
    ~MctsStoreSource() override;

    std::vector<mcts::TreeSummary> trees() const override;
    mcts::SearchRecord record(int64_t treeId) const override;

    const std::shared_ptr<StoreDocument> &document() const { return m_document; }
    int64_t runId() const { return m_runId; }
    // "running", "finished", "failed" or "stopped": the run's status at the last trees().
    const std::string &runStatus() const { return m_status; }

private:
    std::shared_ptr<StoreDocument> m_document;
    int64_t m_runId = 0;
    mutable std::string m_status;
};

// The last MCTS run of the document's store (0 when it has none). Throws store::StoreError.
int64_t lastMctsRun(const StoreDocument &document);

} // namespace rwb::widgets
