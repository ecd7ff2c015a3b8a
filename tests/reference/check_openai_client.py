#!/usr/bin/env python3
"""OpenAI's own Python client (the `openai` package) against a running `rwb serve`: what
docs/serve.md promises, seen through the SDK that trainers and scripts use. It starts
nothing; give it the base URL of a server started with a chat model, e.g.

    rwb serve --model runs/judge-sft/final [--embed hf:DIR] --port 8000 &
    check_openai_client.py --url http://127.0.0.1:8000/v1 [--api-key KEY]

Checks: the model list; a chat completion (temperature 0, seed); the same request with
stream=True and stream_options include_usage (the deltas join to the same text, every
choice ends with the same finish_reason, the last chunk has no choices and the same
usage); n=2 streamed by index; max_completion_tokens; a client that closes a stream
early (the server goes on); the legacy completions endpoint (404 NotFoundError, as
documented, or a completion if served); embeddings when an embedding model is served;
errors as the SDK's exceptions (an unknown model: NotFoundError, also for stream=True;
temperature 3: BadRequestError; a wrong key, when the server has one:
AuthenticationError). One line per check; exit 0 when all pass, 1 when one fails, 2 when
the server cannot be reached or the arguments are wrong.
"""

import argparse
import math
import os
import sys
import time


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", required=True, help="the server's base URL, e.g. http://127.0.0.1:8000/v1")
    parser.add_argument("--api-key", default=os.environ.get("OPENAI_API_KEY", "unused"),
                        help="the server's --api-key (default: $OPENAI_API_KEY, else 'unused')")
    parser.add_argument("--model", default="", help="the chat model's id (default: the first model listed)")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per request")
    args = parser.parse_args()

    try:
        import openai
    except ImportError:
        print("check_openai_client: the openai package is missing (pip install -r tests/reference/requirements.txt)",
              file=sys.stderr)
        return 2

    client = openai.OpenAI(base_url=args.url, api_key=args.api_key, timeout=args.timeout, max_retries=0)
    try:
        models = [m.id for m in client.models.list().data]
    except openai.APIConnectionError as e:
        print("check_openai_client: cannot reach %s: %s" % (args.url, e), file=sys.stderr)
        return 2
    except openai.APIStatusError as e:
        print("check_openai_client: GET /models answered %d: %s" % (e.status_code, e.message), file=sys.stderr)
        return 2
    if not models:
        print("check_openai_client: the server lists no model", file=sys.stderr)
        return 2
    chat_model = args.model or models[0]  # rwb serve lists the chat model first
    embedding_models = [m for m in models if m != chat_model]
    print("openai %s, %s: chat model %s, embedding models %s" %
          (openai.__version__, args.url, chat_model, ", ".join(embedding_models) or "none"))

    failures = []

    def check(name, function):
        start = time.monotonic()
        try:
            detail = function()
        except Exception as e:  # a check's failure, whatever it is, is reported and the rest go on
            failures.append(name)
            print("FAIL %s: %s: %s" % (name, type(e).__name__, e))
            return
        print("ok   %s (%.2f s)%s" % (name, time.monotonic() - start, ": " + detail if detail else ""))

    messages = [{"role": "system", "content": "You grade answers."},
                {"role": "user", "content": "Is Tokyo the capital of Japan? Answer in one word."}]
    request = dict(model=chat_model, messages=messages, temperature=0, seed=1, max_tokens=24)

    def plain():
        r = client.chat.completions.create(**request)
        assert r.object == "chat.completion", r.object
        assert r.model == chat_model, r.model
        assert len(r.choices) == 1 and r.choices[0].index == 0
        c = r.choices[0]
        assert c.message.role == "assistant" and isinstance(c.message.content, str)
        assert c.finish_reason in ("stop", "length"), c.finish_reason
        u = r.usage
        assert u.prompt_tokens > 0 and 1 <= u.completion_tokens <= 24, u
        assert u.total_tokens == u.prompt_tokens + u.completion_tokens, u
        return r

    reference = {}

    def chat_plain():
        r = plain()
        reference["r"] = r
        return "%r, finish %s, usage %d + %d" % (r.choices[0].message.content[:40], r.choices[0].finish_reason,
                                                  r.usage.prompt_tokens, r.usage.completion_tokens)

    def chat_stream():
        r = reference.get("r") or plain()
        stream = client.chat.completions.create(**request, stream=True, stream_options={"include_usage": True})
        text, finish, usage, chunks, roles = "", None, None, 0, 0
        for chunk in stream:
            chunks += 1
            assert chunk.object == "chat.completion.chunk", chunk.object
            assert usage is None, "a chunk after the usage chunk"
            if not chunk.choices:
                usage = chunk.usage
                continue
            assert chunk.usage is None, "usage in a chunk with choices"
            assert len(chunk.choices) == 1 and chunk.choices[0].index == 0
            d = chunk.choices[0].delta
            roles += d.role == "assistant"
            text += d.content or ""
            if chunk.choices[0].finish_reason:
                assert finish is None, "two finish_reasons"
                finish = chunk.choices[0].finish_reason
        assert roles == 1, "%d role chunks" % roles
        assert text == r.choices[0].message.content, "streamed %r, plain %r" % (text, r.choices[0].message.content)
        assert finish == r.choices[0].finish_reason, (finish, r.choices[0].finish_reason)
        assert usage is not None, "no usage chunk"
        assert (usage.prompt_tokens, usage.completion_tokens, usage.total_tokens) == \
            (r.usage.prompt_tokens, r.usage.completion_tokens, r.usage.total_tokens), (usage, r.usage)
        return "%d chunks, the same text, finish_reason and usage" % chunks

    def chat_stream_n2():
        sampled = dict(request, temperature=1.0, seed=7, n=2)
        r = client.chat.completions.create(**sampled)
        texts, finishes = {}, {}
        for chunk in client.chat.completions.create(**sampled, stream=True):
            for c in chunk.choices:
                texts[c.index] = texts.get(c.index, "") + (c.delta.content or "")
                if c.finish_reason:
                    finishes[c.index] = c.finish_reason
        for c in r.choices:
            assert texts.get(c.index) == c.message.content, (c.index, texts.get(c.index), c.message.content)
            assert finishes.get(c.index) == c.finish_reason, (c.index, finishes.get(c.index), c.finish_reason)
        assert sorted(texts) == [0, 1], sorted(texts)
        return "both choices as the plain request's"

    def max_completion_tokens():
        r = client.chat.completions.create(model=chat_model, messages=messages, temperature=0,
                                           max_completion_tokens=3)
        assert r.usage.completion_tokens <= 3, r.usage
        return "%d completion tokens" % r.usage.completion_tokens

    def stream_closed_early():
        stream = client.chat.completions.create(model=chat_model, messages=messages, temperature=1.0, seed=3,
                                                max_tokens=200, stream=True)
        for i, _ in enumerate(stream):
            if i >= 2:
                break
        stream.close()
        r = client.chat.completions.create(model=chat_model, messages=messages, max_tokens=2)
        assert r.choices, r
        return "the next request is answered"

    def legacy_completions():
        try:
            r = client.completions.create(model=chat_model, prompt="Tokyo is", max_tokens=4)
        except openai.NotFoundError as e:
            return "not served: NotFoundError (%d), as docs/serve.md says" % e.status_code
        assert r.choices and isinstance(r.choices[0].text, str), r
        return "served: %r" % r.choices[0].text

    def embeddings():
        name = embedding_models[0]
        texts = ["query: where is the statute?", "passage: the statute applies from 2021"]
        by_sdk = client.embeddings.create(model=name, input=texts)  # base64, decoded by the SDK
        floats = client.embeddings.create(model=name, input=texts, encoding_format="float")
        assert [d.index for d in by_sdk.data] == [0, 1]
        for a, b in zip(by_sdk.data, floats.data):
            assert len(a.embedding) == len(b.embedding) > 0
            assert max(abs(x - y) for x, y in zip(a.embedding, b.embedding)) <= 1e-6
            norm = math.sqrt(sum(x * x for x in a.embedding))
            assert abs(norm - 1.0) <= 1e-4, norm
        assert by_sdk.usage.prompt_tokens > 0, by_sdk.usage
        return "%s: %d dimensions, base64 = float, norm 1" % (name, len(by_sdk.data[0].embedding))

    def expect(exception, status, function):
        try:
            function()
        except exception as e:
            assert e.status_code == status, e.status_code
            return "%s %d: %s" % (type(e).__name__, e.status_code, e.message[:80])
        raise AssertionError("no %s" % exception.__name__)

    def bad_model():
        return expect(openai.NotFoundError, 404,
                      lambda: client.chat.completions.create(model="no-such-model", messages=messages))

    def bad_model_stream():
        return expect(openai.NotFoundError, 404,
                      lambda: client.chat.completions.create(model="no-such-model", messages=messages, stream=True))

    def bad_temperature():
        return expect(openai.BadRequestError, 400,
                      lambda: client.chat.completions.create(model=chat_model, messages=messages, temperature=3,
                                                             stream=True))

    def wrong_key():
        other = openai.OpenAI(base_url=args.url, api_key=args.api_key + "-wrong", max_retries=0)
        try:
            other.chat.completions.create(model=chat_model, messages=messages, max_tokens=1)
        except openai.AuthenticationError as e:
            return "AuthenticationError %d" % e.status_code
        return "the server has no key: answered"

    check("chat", chat_plain)
    check("chat stream=True, include_usage", chat_stream)
    check("chat stream=True, n=2", chat_stream_n2)
    check("max_completion_tokens", max_completion_tokens)
    check("a stream closed early", stream_closed_early)
    check("completions (legacy)", legacy_completions)
    if embedding_models:
        check("embeddings", embeddings)
    else:
        print("--   embeddings: no embedding model served (start rwb serve with --embed hf:DIR)")
    check("unknown model", bad_model)
    check("unknown model, stream=True", bad_model_stream)
    check("temperature 3, stream=True", bad_temperature)
    check("wrong API key", wrong_key)
    if failures:
        print("%d check(s) failed: %s" % (len(failures), ", ".join(failures)))
        return 1
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
