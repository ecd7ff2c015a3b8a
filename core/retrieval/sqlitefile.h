#pragma once

#include <cstdint>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace rwb::retrieval {

// An open SQLite connection to a retrieval index file, closed by the destructor, with
// prepared statements. Internal to core/retrieval (Bm25Index, DenseRetriever): public
// headers only forward-declare it.
//
// Failures:
// - opening a file that does not exist (read-only mode) throws data::InputException
//   naming the file;
// - any later SQLite error throws std::runtime_error "<file>: <context>: <SQLite's message>".
//
// Threads: opened with SQLITE_OPEN_FULLMUTEX, so several threads may each prepare and run
// their own Statement on one connection; a Statement itself belongs to one thread.
class SqliteFile {
public:
    enum class Mode { ReadOnly, ReadWrite, Create };

    SqliteFile(const std::string &path, Mode mode);
    ~SqliteFile();
    SqliteFile(const SqliteFile &) = delete;
    SqliteFile &operator=(const SqliteFile &) = delete;

    const std::string &path() const { return m_path; }
    sqlite3 *handle() const { return m_db; }

    // Runs SQL that returns no rows (one or more statements).
    void exec(const std::string &sql, const std::string &context) const;
    // SQLite's message for the connection's last failure.
    std::string lastError() const;
    // Throws std::runtime_error with the connection's last SQLite message.
    [[noreturn]] void fail(const std::string &context) const;

    // One prepared statement; parameters 1-based, columns 0-based.
    class Statement {
    public:
        Statement(const SqliteFile &file, std::string_view sql);
        ~Statement();
        Statement(const Statement &) = delete;
        Statement &operator=(const Statement &) = delete;

        void bind(int index, int64_t value);
        void bind(int index, double value);
        void bindText(int index, std::string_view text);
        // An empty view binds a zero-length blob (not NULL).
        void bindBlob(int index, std::string_view bytes);
        void bindNull(int index);
        // True while a row is available; false when done.
        bool step();
        // Runs to completion and resets (statements that return no rows).
        void run();
        void reset();

        bool isNull(int column) const;
        int64_t columnInt(int column) const;
        double columnDouble(int column) const;
        std::string columnText(int column) const;
        std::string columnBlob(int column) const;

    private:
        const SqliteFile &m_file;
        sqlite3_stmt *m_stmt = nullptr;
    };

private:
    std::string m_path;
    sqlite3 *m_db = nullptr;
};

} // namespace rwb::retrieval
