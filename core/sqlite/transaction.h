#pragma once

#include <string>

struct sqlite3;

namespace rwb::sqlite {

// One SQLite transaction on a connection, rolled back when destroyed uncommitted (an
// exception unwinding); every failure throws Error naming `path`. Used by the thread
// that owns the connection.
class Transaction {
public:
    enum class Kind {
        Read,  // BEGIN (deferred): one snapshot for every statement until commit()
        Write, // BEGIN IMMEDIATE: takes the write lock now (waits up to the busy timeout)
    };
    Transaction(sqlite3 *db, const std::string &path, Kind kind = Kind::Write);
    ~Transaction();
    Transaction(const Transaction &) = delete;
    Transaction &operator=(const Transaction &) = delete;

    void commit();

private:
    void exec(const char *sql, const char *context);

    sqlite3 *m_db;
    const std::string &m_path;
    bool m_done = false;
};

} // namespace rwb::sqlite
