#include "sqlite/connection.h"

#include "sqlite/error.h"
#include "sqlite/statement.h"

#include <sqlite3.h>

namespace rwb::sqlite {

Connection::Connection(std::string path, Mode mode, const Options &options) : m_path(std::move(path))
{
    int flags = options.shared ? SQLITE_OPEN_FULLMUTEX : SQLITE_OPEN_NOMUTEX;
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
    const int rc = sqlite3_open_v2(m_path.c_str(), &m_db, flags, nullptr);
    if (rc != SQLITE_OK) {
        const std::string message = m_db ? sqlite3_errmsg(m_db) : sqlite3_errstr(rc);
        sqlite3_close_v2(m_db);
        m_db = nullptr;
        throw Error(m_path, options.openContext, message);
    }
    sqlite3_extended_result_codes(m_db, 1);
    sqlite3_busy_timeout(m_db, options.busyTimeoutMs);
}

Connection::~Connection()
{
    sqlite3_close_v2(m_db);
}

void Connection::exec(const std::string &sql, const std::string &context) const
{
    execSql(m_db, m_path, sql, context);
}

std::string Connection::lastError() const
{
    return sqlite3_errmsg(m_db);
}

void Connection::fail(const std::string &context) const
{
    throw Error(m_path, context, sqlite3_errmsg(m_db));
}

} // namespace rwb::sqlite
