#pragma once

#include <stdexcept>
#include <string>

namespace rwb::sqlite {

// Thrown for anything SQLite refuses: the file cannot be opened, it is not what its
// owner expects or comes from a newer version, a statement fails, the disk is full.
// what() reads "<file>: <context>: <SQLite's message>" so a user can act on it.
class Error : public std::runtime_error {
public:
    Error(std::string path, const std::string &context, std::string sqliteMessage = {});

    const std::string &path() const { return m_path; }
    const std::string &sqliteMessage() const { return m_sqliteMessage; }

private:
    std::string m_path;
    std::string m_sqliteMessage;
};

} // namespace rwb::sqlite
