#pragma once

#include <array>
#include <cstdint>
#include <string>

struct sqlite3;

namespace rwb::store {

// The full-text indexes of a run store (prompts_fts over prompt text, rollouts_fts over
// completion text), kept off the writer's path. Internal to RunStore; one per connection.
//
// Since schema version 2 nothing indexes a row when it is inserted: writeStep() pays no
// FTS5 work. The file records in search_progress a watermark per table: every row with
// id <= indexed_id is in the persistent index, no row above it. Two ways bring a search
// up to date:
// - catchUp() (read-write connections only) indexes the rows above the watermark into
//   the file, in batches of kBatchRows, each batch one short write transaction that also
//   moves the watermark: killing the process at any moment leaves index and watermark
//   consistent (the batch in flight is simply not there).
// - matchSql() (any connection, read-only ones included) keeps a connection-private TEMP
//   FTS5 index of the rows above the watermark, built on first use and extended with the
//   rows committed since; a search matches both. It never writes the file and never takes
//   the write lock.
// Version 1 files kept their indexes complete with insert triggers; there both are no-ops.
//
// Threads: the thread that owns the connection. Failures throw StoreError.
class SearchIndex {
public:
    enum class Table { Prompts, Rollouts };
    // Rows indexed per write transaction by catchUp(): a few tens of milliseconds of work,
    // so another writer (a trainer) waits at most that long for the lock.
    static constexpr int64_t kBatchRows = 4096;

    // `lazy` is false for version-1 files (complete indexes, no search_progress).
    SearchIndex(sqlite3 *db, const std::string &path, bool readOnly, bool lazy);

    // Indexes up to `maxRows` rows of `table` above the watermark into the file (< 0: all
    // of them); returns how many. Read-write connections only.
    int64_t catchUp(Table table, int64_t maxRows = -1);
    // Committed rows of `table` above the watermark (not in the persistent index yet).
    int64_t pending(Table table) const;

    // For a search: call inside a read transaction (Transaction::Kind::Read) on this
    // connection. Brings the private index of the rows above the watermark up to date and
    // returns a subquery that yields the rowid of every row of `table` in the
    // transaction's snapshot whose text matches an FTS5 query, with `parameters` `?`
    // placeholders, each to be bound to that query.
    struct Match {
        std::string sql;
        int parameters = 1;
    };
    Match matchSql(Table table);
    // After the search's transaction: commit() keeps what matchSql() added to the private
    // index; rollback() forgets it (the transaction rolled back, the TEMP table with it).
    void commit();
    void rollback();

private:
    // The private index of one table's rows above the watermark.
    struct Tail {
        bool exists = false;     // its TEMP table was created on this connection
        int64_t generation = -1; // search_progress.generation when it was (re)started
        int64_t from = 0;        // it holds the rows with from < id <= to
        int64_t to = 0;
    };

    sqlite3 *m_db;
    const std::string &m_path;
    bool m_readOnly;
    bool m_lazy;
    std::array<Tail, 2> m_tails;
    std::array<Tail, 2> m_saved; // as they were when the current search began
    bool m_inSearch = false;
};

} // namespace rwb::store
