#include "retrieval/sqlitefile.h"

#include "data/jsonl.h"

#include <sqlite3.h>

#include <stdexcept>

namespace rwb::retrieval {

SqliteFile::SqliteFile(const std::string &path, Mode mode) : m_path(path)
{
    int flags = SQLITE_OPEN_FULLMUTEX;
    switch (mode) {
    case Mode::ReadOnly:
        flags |= SQLITE_OPEN_READONLY;
        break;
    case Mode::ReadWrite:
        flags |= SQLITE_OPEN_READWRITE;
        break;
    case Mode::Create:
        flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
        break;
    }
    const int rc = sqlite3_open_v2(path.c_str(), &m_db, flags, nullptr);
    if (rc != SQLITE_OK) {
        const std::string message = m_db ? sqlite3_errmsg(m_db) : sqlite3_errstr(rc);
        sqlite3_close(m_db);
        m_db = nullptr;
        throw data::InputException({path, 0, "cannot open: " + message});
    }
    sqlite3_extended_result_codes(m_db, 1);
    sqlite3_busy_timeout(m_db, 5000);
}

SqliteFile::~SqliteFile()
{
    sqlite3_close(m_db);
}

void SqliteFile::exec(const std::string &sql, const std::string &context) const
{
    char *error = nullptr;
    if (sqlite3_exec(m_db, sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
        const std::string message = error ? error : sqlite3_errmsg(m_db);
        sqlite3_free(error);
        throw std::runtime_error(m_path + ": " + context + ": " + message);
    }
}

std::string SqliteFile::lastError() const
{
    return sqlite3_errmsg(m_db);
}

void SqliteFile::fail(const std::string &context) const
{
    throw std::runtime_error(m_path + ": " + context + ": " + sqlite3_errmsg(m_db));
}

SqliteFile::Statement::Statement(const SqliteFile &file, std::string_view sql) : m_file(file)
{
    if (sqlite3_prepare_v2(file.m_db, sql.data(), static_cast<int>(sql.size()), &m_stmt, nullptr) != SQLITE_OK)
        file.fail("cannot prepare \"" + std::string(sql.substr(0, 60)) + "\"");
}

SqliteFile::Statement::~Statement()
{
    sqlite3_finalize(m_stmt);
}

void SqliteFile::Statement::bind(int index, int64_t value)
{
    if (sqlite3_bind_int64(m_stmt, index, value) != SQLITE_OK)
        m_file.fail("cannot bind a parameter");
}

void SqliteFile::Statement::bind(int index, double value)
{
    if (sqlite3_bind_double(m_stmt, index, value) != SQLITE_OK)
        m_file.fail("cannot bind a parameter");
}

void SqliteFile::Statement::bindText(int index, std::string_view text)
{
    if (sqlite3_bind_text64(m_stmt, index, text.data(), text.size(), SQLITE_TRANSIENT, SQLITE_UTF8) != SQLITE_OK)
        m_file.fail("cannot bind a parameter");
}

void SqliteFile::Statement::bindBlob(int index, std::string_view bytes)
{
    const int rc = bytes.empty() ? sqlite3_bind_zeroblob(m_stmt, index, 0)
                                 : sqlite3_bind_blob64(m_stmt, index, bytes.data(), bytes.size(), SQLITE_TRANSIENT);
    if (rc != SQLITE_OK)
        m_file.fail("cannot bind a parameter");
}

void SqliteFile::Statement::bindNull(int index)
{
    if (sqlite3_bind_null(m_stmt, index) != SQLITE_OK)
        m_file.fail("cannot bind a parameter");
}

bool SqliteFile::Statement::step()
{
    const int rc = sqlite3_step(m_stmt);
    if (rc == SQLITE_ROW)
        return true;
    if (rc == SQLITE_DONE)
        return false;
    m_file.fail("cannot run \"" + std::string(sqlite3_sql(m_stmt)).substr(0, 60) + "\"");
}

void SqliteFile::Statement::run()
{
    while (step()) {
    }
    reset();
}

void SqliteFile::Statement::reset()
{
    sqlite3_reset(m_stmt);
    sqlite3_clear_bindings(m_stmt);
}

bool SqliteFile::Statement::isNull(int column) const
{
    return sqlite3_column_type(m_stmt, column) == SQLITE_NULL;
}

int64_t SqliteFile::Statement::columnInt(int column) const
{
    return sqlite3_column_int64(m_stmt, column);
}

double SqliteFile::Statement::columnDouble(int column) const
{
    return sqlite3_column_double(m_stmt, column);
}

std::string SqliteFile::Statement::columnText(int column) const
{
    const unsigned char *t = sqlite3_column_text(m_stmt, column);
    return t ? std::string(reinterpret_cast<const char *>(t), static_cast<size_t>(sqlite3_column_bytes(m_stmt, column)))
             : std::string();
}

std::string SqliteFile::Statement::columnBlob(int column) const
{
    const void *b = sqlite3_column_blob(m_stmt, column);
    return b ? std::string(static_cast<const char *>(b), static_cast<size_t>(sqlite3_column_bytes(m_stmt, column)))
             : std::string();
}

} // namespace rwb::retrieval
