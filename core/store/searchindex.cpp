#include "store/searchindex.h"

#include "sqlite/statement.h"
#include "sqlite/transaction.h"
#include "store/storeerror.h"

#include <sqlite3.h>

#include <algorithm>

namespace rwb::store {

using sqlite::execSql;
using sqlite::Statement;
using sqlite::Transaction;

namespace {

// What each SearchIndex::Table indexes.
struct Source {
    const char *table;  // the content table, also its name in search_progress
    const char *column; // the indexed text column
    const char *fts;    // the persistent FTS5 table (external content)
    const char *tail;   // the connection-private TEMP FTS5 table (contentless)
};
constexpr Source kSources[] = {
    {"prompts", "text", "prompts_fts", "rwb_prompts_tail_fts"},
    {"rollouts", "completion", "rollouts_fts", "rwb_rollouts_tail_fts"},
};

const Source &source(SearchIndex::Table table) { return kSources[static_cast<int>(table)]; }

// Lets a read-only connection (PRAGMA query_only=ON) write its TEMP tables for a while.
class TempWrites {
public:
    TempWrites(sqlite3 *db, const std::string &path, bool readOnly) : m_db(db), m_readOnly(readOnly)
    {
        if (m_readOnly)
            execSql(m_db, path, "PRAGMA query_only=OFF", "cannot prepare the search");
    }
    ~TempWrites()
    {
        if (m_readOnly)
            sqlite3_exec(m_db, "PRAGMA query_only=ON", nullptr, nullptr, nullptr);
    }
    TempWrites(const TempWrites &) = delete;
    TempWrites &operator=(const TempWrites &) = delete;

private:
    sqlite3 *m_db;
    bool m_readOnly;
};

} // namespace

SearchIndex::SearchIndex(sqlite3 *db, const std::string &path, bool readOnly, bool lazy)
    : m_db(db), m_path(path), m_readOnly(readOnly), m_lazy(lazy)
{
}

int64_t SearchIndex::catchUp(Table table, int64_t maxRows)
{
    if (m_readOnly)
        throw StoreError(m_path, "cannot update the search index: the store is open read-only");
    if (!m_lazy || pending(table) == 0)
        return 0;
    const Source &s = source(table);
    const std::string t = s.table;
    int64_t done = 0;
    while (maxRows < 0 || done < maxRows) {
        const int64_t want = maxRows < 0 ? kBatchRows : std::min(kBatchRows, maxRows - done);
        Transaction write(m_db, m_path);
        Statement range(m_db,
                        "SELECT count(*), max(id) FROM (SELECT id FROM " + t +
                            " WHERE id > (SELECT indexed_id FROM search_progress WHERE name = ?1) ORDER BY id LIMIT ?2)",
                        m_path);
        range.bindText(1, s.table);
        range.bind(2, want);
        range.step();
        const int64_t rows = range.columnInt(0);
        const int64_t top = range.columnInt(1);
        range.reset();
        if (rows == 0)
            break; // rolls back the empty transaction
        Statement index(m_db,
                        std::string("INSERT INTO ") + s.fts + "(rowid, " + s.column + ") SELECT id, " + s.column +
                            " FROM " + t +
                            " WHERE id > (SELECT indexed_id FROM search_progress WHERE name = ?1) AND id <= ?2",
                        m_path);
        index.bindText(1, s.table);
        index.bind(2, top);
        index.run();
        Statement mark(m_db, "UPDATE search_progress SET indexed_id = ?2 WHERE name = ?1", m_path);
        mark.bindText(1, s.table);
        mark.bind(2, top);
        mark.run();
        write.commit();
        done += rows;
        if (rows < want)
            break;
    }
    return done;
}

int64_t SearchIndex::pending(Table table) const
{
    if (!m_lazy)
        return 0;
    const Source &s = source(table);
    Statement count(m_db,
                    std::string("SELECT count(*) FROM ") + s.table +
                        " WHERE id > (SELECT indexed_id FROM search_progress WHERE name = ?)",
                    m_path);
    count.bindText(1, s.table);
    return count.step() ? count.columnInt(0) : 0;
}

SearchIndex::Match SearchIndex::matchSql(Table table)
{
    const Source &s = source(table);
    Match match{std::string("SELECT rowid FROM ") + s.fts + " WHERE " + s.fts + " MATCH ?", 1};
    if (!m_lazy)
        return match;
    if (!m_inSearch) {
        m_saved = m_tails;
        m_inSearch = true;
    }
    Tail &tail = m_tails[static_cast<size_t>(table)];

    Statement state(m_db,
                    std::string("SELECT indexed_id, generation, (SELECT coalesce(max(id), 0) FROM ") + s.table +
                        ") FROM search_progress WHERE name = ?",
                    m_path);
    state.bindText(1, s.table);
    if (!state.step())
        throw StoreError(m_path, std::string("cannot search ") + s.table + ": search_progress has no row for it");
    const int64_t watermark = state.columnInt(0);
    const int64_t generation = state.columnInt(1);
    const int64_t top = state.columnInt(2);
    state.reset();

    // Start again when rows were deleted or changed since (ids may have been handed out
    // again), or when the persistent index has caught up with everything the tail held.
    const bool restart = !tail.exists || tail.generation != generation || watermark >= tail.to;
    const int64_t from = restart ? watermark : tail.to;
    const bool holdsRows = tail.exists && tail.to > tail.from;
    if (top > from || (restart && holdsRows)) {
        const TempWrites allowed(m_db, m_path, m_readOnly);
        const std::string name = std::string("temp.") + s.tail;
        if (!tail.exists)
            execSql(m_db, m_path,
                 "CREATE VIRTUAL TABLE " + name + " USING fts5(" + s.column + ", content='', tokenize='trigram')",
                 "cannot create the search's private index");
        else if (restart && holdsRows)
            execSql(m_db, m_path, "INSERT INTO " + name + "(" + s.tail + ") VALUES ('delete-all')",
                 "cannot clear the search's private index");
        tail.exists = true;
        if (top > from) {
            Statement add(m_db,
                          "INSERT INTO " + name + "(rowid, " + s.column + ") SELECT id, " + s.column + " FROM main." +
                              s.table + " WHERE id > ? AND id <= ?",
                          m_path);
            add.bind(1, from);
            add.bind(2, top);
            add.run();
        }
    }
    if (restart) {
        tail.generation = generation;
        tail.from = watermark;
    }
    tail.to = std::max(top, from);

    if (tail.exists && tail.to > tail.from) {
        match.sql += std::string(" UNION ALL SELECT rowid FROM temp.") + s.tail + " WHERE " + s.tail + " MATCH ?";
        match.parameters = 2;
    }
    return match;
}

void SearchIndex::commit() { m_inSearch = false; }

void SearchIndex::rollback()
{
    if (m_inSearch)
        m_tails = m_saved;
    m_inSearch = false;
}

} // namespace rwb::store
