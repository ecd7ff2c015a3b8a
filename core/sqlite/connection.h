#pragma once

#include <string>

struct sqlite3;

namespace rwb::sqlite {

// An open SQLite connection, closed by the destructor: the one way core opens a SQLite
// file (the run store, the judge cache, the retrieval indexes). Statements on it are
// sqlite::Statement, transactions sqlite::Transaction; every failure throws sqlite::Error
// naming the file.
class Connection {
public:
    enum class Mode {
        ReadOnly,  // the file must exist
        ReadWrite, // the file must exist
        Create     // read-write, the file made when missing
    };
    struct Options {
        int busyTimeoutMs = 5000; // how long a statement waits for another connection's lock
        // SQLITE_OPEN_FULLMUTEX: several threads may use the connection, each with
        // statements of its own; otherwise (NOMUTEX) one thread at a time.
        bool shared = false;
        std::string openContext = "cannot open"; // what a failed open says before SQLite's message
    };
    Connection(std::string path, Mode mode, const Options &options);
    Connection(std::string path, Mode mode) : Connection(std::move(path), mode, Options{}) {}
    ~Connection();
    Connection(const Connection &) = delete;
    Connection &operator=(const Connection &) = delete;

    const std::string &path() const { return m_path; }
    sqlite3 *handle() const { return m_db; }

    // Runs SQL that returns no rows (one or more statements).
    void exec(const std::string &sql, const std::string &context) const;
    // SQLite's message for the connection's last failure.
    std::string lastError() const;
    // Throws Error with the connection's last SQLite message.
    [[noreturn]] void fail(const std::string &context) const;

private:
    std::string m_path;
    sqlite3 *m_db = nullptr;
};

} // namespace rwb::sqlite
