#pragma once

// {name} templates, as the synthetic data generators' phrase tables write them.

#include <functional>
#include <string>
#include <string_view>

namespace rwb::text {

// `tmpl` with every {name} replaced by value(name), called once per placeholder in the
// order they appear (so a value drawn from a random stream comes out the same every time).
// A placeholder without its '}' is a bug in the table: std::logic_error starting with
// `owner` ("synthetic e-mails: unclosed placeholder in …"). value() throws for a name it
// does not know.
std::string expandPlaceholders(const std::string &tmpl, const std::function<std::string(const std::string &)> &value,
                               std::string_view owner);

} // namespace rwb::text
