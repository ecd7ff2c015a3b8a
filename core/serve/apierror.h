#pragma once

#include <stdexcept>
#include <string>

namespace rwb::serve {

// A request that cannot be answered, as rwb serve reports it: an HTTP status and OpenAI's
// error object {"error": {"message", "type", "param", "code"}} (docs/serve.md).
struct ApiError : std::runtime_error {
    ApiError(int status, std::string type, std::string param, std::string code, const std::string &message)
        : std::runtime_error(message), status(status), type(std::move(type)), param(std::move(param)),
          code(std::move(code))
    {
    }
    int status = 400;
    std::string type;  // "invalid_request_error", "authentication_error", "server_error", …
    std::string param; // the request's field at fault ("messages[1].role"); "": none (null)
    std::string code;  // "context_length_exceeded", "model_not_found", …; "": none (null)

    // 400 invalid_request_error naming `param`.
    static ApiError invalid(const std::string &param, const std::string &message,
                            const std::string &code = "invalid_value")
    {
        return ApiError(400, "invalid_request_error", param, code, message);
    }
};

} // namespace rwb::serve
