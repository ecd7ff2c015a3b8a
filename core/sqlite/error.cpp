#include "sqlite/error.h"

namespace rwb::sqlite {

namespace {
std::string compose(const std::string &path, const std::string &context, const std::string &message)
{
    std::string s = path + ": " + context;
    if (!message.empty())
        s += ": " + message;
    return s;
}
} // namespace

Error::Error(std::string path, const std::string &context, std::string sqliteMessage)
    : std::runtime_error(compose(path, context, sqliteMessage)), m_path(std::move(path)),
      m_sqliteMessage(std::move(sqliteMessage))
{
}

} // namespace rwb::sqlite
