"""A parent/child tool loop over HTTP, standard library only: what a Python agent nestcast cannot
hand a fetch to looks like. The parent asks the model, which calls the `delegate` tool; the tool
runs a child agent (its own conversation with the model); the parent then streams its answer.
Reads OPENAI_BASE_URL and OPENAI_API_KEY like the OpenAI SDKs; TASK changes what is asked."""

import json
import os
import sys
import urllib.error
import urllib.request

BASE = os.environ["OPENAI_BASE_URL"].rstrip("/")
KEY = os.environ["OPENAI_API_KEY"]
TASK = os.environ.get("TASK", "Summarise the report in one line.")
TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "delegate",
            "description": "Give a task to a helper agent.",
            "parameters": {"type": "object", "properties": {"task": {"type": "string"}}, "required": ["task"]},
        },
    }
]


def post(body):
    request = urllib.request.Request(
        BASE + "/chat/completions",
        data=json.dumps(body).encode(),
        headers={"content-type": "application/json", "authorization": "Bearer " + KEY},
        method="POST",
    )
    try:
        return urllib.request.urlopen(request)
    except urllib.error.HTTPError as error:
        print("model call failed: %d %s" % (error.code, error.read().decode()), file=sys.stderr)
        sys.exit(3)


def complete(messages, tools=None):
    body = {"model": "gpt-4o-mini", "messages": messages}
    if tools:
        body["tools"] = tools
    with post(body) as response:
        return json.load(response)["choices"][0]["message"]


def stream(messages):
    text = ""
    with post({"model": "gpt-4o-mini", "messages": messages, "stream": True}) as response:
        for raw in response:
            line = raw.decode().strip()
            if not line.startswith("data: ") or line == "data: [DONE]":
                continue
            choice = json.loads(line[6:])["choices"]
            if choice:
                text += choice[0]["delta"].get("content") or ""
    return text


def child(task):
    reply = complete([{"role": "system", "content": "You are a helper."}, {"role": "user", "content": task}])
    return reply["content"]


def main():
    messages = [{"role": "user", "content": TASK}]
    reply = complete(messages, TOOLS)
    messages.append(reply)
    for call in reply.get("tool_calls") or []:
        arguments = json.loads(call["function"]["arguments"])
        result = child(arguments["task"])
        print("child said: " + result)
        messages.append({"role": "tool", "tool_call_id": call["id"], "content": result})
    print("parent said: " + stream(messages))


main()
