#include "sqlite/statement.h"

#include "sqlite/connection.h"
#include "sqlite/error.h"

#include <sqlite3.h>

namespace rwb::sqlite {

void execSql(sqlite3 *db, const std::string &path, const std::string &sql, const std::string &context)
{
    char *error = nullptr;
    if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
        const std::string message = error ? error : sqlite3_errmsg(db);
        sqlite3_free(error);
        throw Error(path, context, message);
    }
}

Statement::Statement(sqlite3 *db, std::string_view sql, const std::string &path) : m_db(db), m_path(path)
{
    if (sqlite3_prepare_v3(db, sql.data(), static_cast<int>(sql.size()), SQLITE_PREPARE_PERSISTENT, &m_stmt,
                           nullptr) != SQLITE_OK)
        throw Error(m_path, "cannot prepare \"" + std::string(sql.substr(0, 120)) + "\"", sqlite3_errmsg(db));
}

Statement::Statement(const Connection &connection, std::string_view sql)
    : Statement(connection.handle(), sql, connection.path())
{
}

Statement::~Statement()
{
    sqlite3_finalize(m_stmt);
}

void Statement::fail(const std::string &context) const
{
    const char *sql = sqlite3_sql(m_stmt);
    std::string s(sql ? sql : "");
    if (s.size() > 120)
        s = s.substr(0, 120) + "…";
    throw Error(m_path, context + " (" + s + ")", sqlite3_errmsg(m_db));
}

void Statement::bindNull(int index)
{
    if (sqlite3_bind_null(m_stmt, index) != SQLITE_OK)
        fail("cannot bind parameter " + std::to_string(index));
}

void Statement::bind(int index, int64_t value)
{
    if (sqlite3_bind_int64(m_stmt, index, value) != SQLITE_OK)
        fail("cannot bind parameter " + std::to_string(index));
}

void Statement::bind(int index, double value)
{
    if (sqlite3_bind_double(m_stmt, index, value) != SQLITE_OK)
        fail("cannot bind parameter " + std::to_string(index));
}

void Statement::bindText(int index, std::string_view text)
{
    // SQLITE_STATIC: callers keep the text alive until the statement has run.
    if (sqlite3_bind_text64(m_stmt, index, text.data(), text.size(), SQLITE_STATIC, SQLITE_UTF8) != SQLITE_OK)
        fail("cannot bind parameter " + std::to_string(index));
}

void Statement::bindBlob(int index, std::string_view bytes)
{
    if (sqlite3_bind_blob64(m_stmt, index, bytes.empty() ? "" : bytes.data(), bytes.size(), SQLITE_STATIC) !=
        SQLITE_OK)
        fail("cannot bind parameter " + std::to_string(index));
}

void Statement::bindTextCopy(int index, std::string_view text)
{
    if (sqlite3_bind_text64(m_stmt, index, text.data(), text.size(), SQLITE_TRANSIENT, SQLITE_UTF8) != SQLITE_OK)
        fail("cannot bind parameter " + std::to_string(index));
}

void Statement::bindBlobCopy(int index, std::string_view bytes)
{
    if (sqlite3_bind_blob64(m_stmt, index, bytes.empty() ? "" : bytes.data(), bytes.size(), SQLITE_TRANSIENT) !=
        SQLITE_OK)
        fail("cannot bind parameter " + std::to_string(index));
}

bool Statement::step()
{
    const int rc = sqlite3_step(m_stmt);
    if (rc == SQLITE_ROW)
        return true;
    if (rc == SQLITE_DONE)
        return false;
    std::string context = "statement failed";
    sqlite3_reset(m_stmt); // keeps the error message, makes the statement reusable
    fail(context);
}

void Statement::run()
{
    while (step()) {
    }
    reset();
}

void Statement::reset()
{
    sqlite3_reset(m_stmt);
    sqlite3_clear_bindings(m_stmt);
}

int Statement::columnCount() const { return sqlite3_column_count(m_stmt); }
std::string Statement::columnName(int column) const
{
    const char *n = sqlite3_column_name(m_stmt, column);
    return n ? n : "";
}
int Statement::columnType(int column) const { return sqlite3_column_type(m_stmt, column); }
bool Statement::isNull(int column) const { return sqlite3_column_type(m_stmt, column) == SQLITE_NULL; }
int64_t Statement::columnInt(int column) const { return sqlite3_column_int64(m_stmt, column); }
double Statement::columnDouble(int column) const { return sqlite3_column_double(m_stmt, column); }

std::string Statement::columnText(int column) const
{
    const auto *p = reinterpret_cast<const char *>(sqlite3_column_text(m_stmt, column));
    return p ? std::string(p, static_cast<size_t>(sqlite3_column_bytes(m_stmt, column))) : std::string();
}

std::string_view Statement::columnBlob(int column) const
{
    const void *p = sqlite3_column_blob(m_stmt, column);
    const int n = sqlite3_column_bytes(m_stmt, column);
    return p ? std::string_view(static_cast<const char *>(p), static_cast<size_t>(n)) : std::string_view();
}

} // namespace rwb::sqlite
