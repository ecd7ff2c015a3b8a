#include "sqlite/transaction.h"

#include "sqlite/statement.h"

#include <sqlite3.h>

namespace rwb::sqlite {

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
    execSql(m_db, m_path, sql, context);
}

} // namespace rwb::sqlite
