#pragma once

#include <cstdint>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace rwb::sqlite {

class Connection;

// Runs SQL that returns no rows (one or more statements); throws Error naming `path`
// and `context` with SQLite's message.
void execSql(sqlite3 *db, const std::string &path, const std::string &sql, const std::string &context);

// One prepared SQLite statement, owned (finalized in the destructor): every failure
// throws Error naming `path`. Not thread-safe; used by the thread that owns it (a
// connection opened with Connection::Options::shared may serve several threads, each
// with statements of its own). Parameter indexes are 1-based, columns 0-based.
class Statement {
public:
    Statement(sqlite3 *db, std::string_view sql, const std::string &path);
    Statement(const Connection &connection, std::string_view sql);
    ~Statement();
    Statement(const Statement &) = delete;
    Statement &operator=(const Statement &) = delete;

    void bindNull(int index);
    void bind(int index, int64_t value);
    void bind(int index, int value) { bind(index, static_cast<int64_t>(value)); }
    void bind(int index, double value);
    // Text and blobs are bound without a copy (SQLITE_STATIC): the caller keeps the bytes
    // alive until the statement has run (the run store's hot path). The *Copy variants
    // copy them (SQLITE_TRANSIENT), for a temporary. An empty view binds a zero-length
    // blob (not NULL).
    void bindText(int index, std::string_view text);
    void bindBlob(int index, std::string_view bytes);
    void bindTextCopy(int index, std::string_view text);
    void bindBlobCopy(int index, std::string_view bytes);

    // Steps once: true while a row is available, false when done. Throws on an error.
    bool step();
    // Runs to completion (for statements that return no rows), then resets.
    void run();
    // Resets for another run and clears the bindings.
    void reset();

    int columnCount() const;
    std::string columnName(int column) const;
    // SQLITE_INTEGER, SQLITE_FLOAT, SQLITE_TEXT, SQLITE_BLOB or SQLITE_NULL.
    int columnType(int column) const;
    bool isNull(int column) const;
    int64_t columnInt(int column) const;
    double columnDouble(int column) const;
    std::string columnText(int column) const;
    std::string_view columnBlob(int column) const; // valid until the next step/reset

private:
    [[noreturn]] void fail(const std::string &context) const;

    sqlite3 *m_db;
    sqlite3_stmt *m_stmt = nullptr;
    std::string m_path;
};

} // namespace rwb::sqlite
