#include "store/transaction.h"

#include "store/storeerror.h"

#include <sqlite3.h>

namespace rwb::store {

Transaction::Transaction(sqlite3 *db, const std::string &path, Kind kind) : m_db(db), m_path(path)
{
    if (kind == Kind::Write)
        exec("BEGIN IMMEDIATE", "cannot begin a write transaction");
    else
        exec("BEGIN", "cannot begin a read transaction");
}

Transaction::~Transaction()
{
    if (!m_done)
        sqlite3_exec(m_db, "ROLLBACK", nullptr, nullptr, nullptr);
}

void Transaction::commit()
{
    exec("COMMIT", "cannot commit");
    m_done = true;
}

void Transaction::exec(const char *sql, const char *context)
{
    char *error = nullptr;
    if (sqlite3_exec(m_db, sql, nullptr, nullptr, &error) != SQLITE_OK) {
        const std::string message = error ? error : sqlite3_errmsg(m_db);
        sqlite3_free(error);
        throw StoreError(m_path, context, message);
    }
}

} // namespace rwb::store
