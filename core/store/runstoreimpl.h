#pragma once

// The run store's connection and prepared statements, shared by the files that implement
// RunStore (runstore.cpp, preferencestore.cpp). Internal to core/store.

#include "store/runstore.h"
#include "store/searchindex.h"
#include "sqlite/connection.h"
#include "sqlite/statement.h"
#include "sqlite/transaction.h"
#include "store/storeerror.h"

#include <sqlite3.h>

#include <memory>
#include <string>
#include <unordered_map>

namespace rwb::store {

using sqlite::execSql;
using sqlite::Statement;
using sqlite::Transaction;

struct RunStore::Impl {
    std::string path;
    bool readOnly = false;
    std::unique_ptr<sqlite::Connection> connection;
    sqlite3 *db = nullptr; // connection's
    int version = 0;

    // Prepared once, reused for every step (the writer's hot path).
    std::unique_ptr<Statement> insertStep, insertMetric, insertPrompt, findPrompt, insertRollout, insertDecision,
        dataVersion;
    // run id → prompt id → prompts.id, for prompts known to be committed. Forgotten when
    // rows may have been deleted: by query() on this connection, or by any commit of
    // another connection (PRAGMA data_version moved since `promptIdsVersion`).
    std::unordered_map<int64_t, std::unordered_map<std::string, int64_t>> promptIds;
    int64_t promptIdsVersion = -1;
    // The full-text indexes, filled lazily (created once the schema version is known).
    std::unique_ptr<SearchIndex> search;

    ~Impl()
    {
        search.reset();
        insertStep.reset();
        insertMetric.reset();
        insertPrompt.reset();
        findPrompt.reset();
        insertRollout.reset();
        insertDecision.reset();
        dataVersion.reset();
        connection.reset();
    }

    [[noreturn]] void fail(const std::string &context) const
    {
        throw StoreError(path, context, db ? sqlite3_errmsg(db) : "out of memory");
    }

    void exec(const std::string &sql, const std::string &context) const { execSql(db, path, sql, context); }

    int64_t scalarInt(const char *sql) const
    {
        Statement s(db, sql, path);
        return s.step() ? s.columnInt(0) : 0;
    }

    void requireWritable(const char *what) const
    {
        if (readOnly)
            throw StoreError(path, std::string("cannot ") + what + ": the store is open read-only");
    }

    Statement &prepared(std::unique_ptr<Statement> &slot, const char *sql)
    {
        if (!slot)
            slot = std::make_unique<Statement>(db, sql, path);
        return *slot;
    }

    // The rollouts matching `filter`; a text filter matches the rowids of `completions` /
    // `prompts` (SearchIndex::matchSql, each with its own copies of the query).
    RolloutPage listRollouts(const RolloutFilter &filter, int64_t afterId, int limit,
                             const SearchIndex::Match &completions, const SearchIndex::Match &prompts) const;
};

} // namespace rwb::store
