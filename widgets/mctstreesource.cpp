#include "mctstreesource.h"

#include "storedocument.h"

#include "data/jsonl.h"
#include "store/runstore.h"
#include "store/storeerror.h"

#include <algorithm>
#include <stdexcept>
#include <system_error>

namespace rwb::widgets {

namespace fs = std::filesystem;

MctsFileSource::MctsFileSource(std::string path) : m_path(std::move(path)) {}

std::vector<std::string> MctsFileSource::listFiles() const
{
    std::error_code ec;
    const fs::file_status st = fs::status(m_path, ec);
    if (ec || !fs::exists(st))
        throw data::InputException({m_path, 0, "no such file or folder"});
    if (!fs::is_directory(st))
        return {m_path};
    std::vector<std::string> files;
    for (fs::directory_iterator it(m_path, ec), end; !ec && it != end; it.increment(ec)) {
        const fs::path &p = it->path();
        // Hidden files are an editor's or a writer's temporary copies, not records.
        if (p.extension() == ".json" && !p.filename().string().starts_with(".") && it->is_regular_file())
            files.push_back(p.string());
    }
    if (ec)
        throw std::runtime_error(m_path + ": cannot list the folder: " + ec.message());
    std::sort(files.begin(), files.end());
    return files;
}

std::vector<mcts::TreeSummary> MctsFileSource::trees() const
{
    const std::vector<std::string> files = listFiles();
    const bool single = files.size() == 1 && files.front() == m_path;
    std::vector<mcts::TreeSummary> out;
    std::vector<std::string> problems;
    std::map<std::string, Cached> cache;
    for (size_t i = 0; i < files.size(); ++i) {
        const std::string &f = files[i];
        std::error_code ec;
        Cached c;
        c.modified = fs::last_write_time(f, ec);
        c.size = ec ? 0 : fs::file_size(f, ec);
        if (const auto it = m_cache.find(f);
            !ec && it != m_cache.end() && it->second.modified == c.modified && it->second.size == c.size) {
            c = it->second;
        } else {
            try {
                c.summary = mcts::summarize(mcts::readRecordFile(f), static_cast<int64_t>(i));
                c.ok = true;
            } catch (const data::InputException &e) {
                if (single)
                    throw;
                c.problem = e.what();
            } catch (const std::exception &e) {
                if (single)
                    throw;
                c.problem = f + ": " + e.what();
            }
        }
        c.summary.treeId = static_cast<int64_t>(i);
        if (c.ok)
            out.push_back(c.summary);
        else
            problems.push_back(c.problem);
        cache.emplace(f, std::move(c));
    }
    m_files = files;
    m_cache = std::move(cache);
    m_problems = std::move(problems);
    return out;
}

mcts::SearchRecord MctsFileSource::record(int64_t treeId) const
{
    if (m_files.empty())
        m_files = listFiles();
    if (treeId < 0 || treeId >= static_cast<int64_t>(m_files.size()))
        throw std::out_of_range(m_path + ": no tree " + std::to_string(treeId));
    return mcts::readRecordFile(m_files[static_cast<size_t>(treeId)]);
}

std::string MctsFileSource::fileOf(int64_t treeId) const
{
    if (treeId < 0 || treeId >= static_cast<int64_t>(m_files.size()))
        return {};
    return m_files[static_cast<size_t>(treeId)];
}

// ---- MctsStoreSource ----------------------------------------------------------------------

MctsStoreSource::MctsStoreSource(std::shared_ptr<StoreDocument> document, int64_t runId)
    : m_document(std::move(document))
    , m_runId(runId)
{
}

MctsStoreSource::~MctsStoreSource() = default;

std::vector<mcts::TreeSummary> MctsStoreSource::trees() const
{
    const store::RunInfo info = m_document->store().run(m_runId);
    if (info.kind != "mcts")
        throw store::StoreError(m_document->path().toStdString(), "run " + std::to_string(m_runId) + " is a " +
                                                                       info.kind + " run, not a tree search (rwb mcts run)");
    m_status = info.status;
    return m_document->store().mctsTrees(m_runId);
}

mcts::SearchRecord MctsStoreSource::record(int64_t treeId) const
{
    return m_document->store().mctsTree(treeId);
}

int64_t lastMctsRun(const StoreDocument &document)
{
    return document.store().lastRun(store::RunKind::Mcts);
}

} // namespace rwb::widgets
