export const HELP = `shiro — a coding agent for the terminal

Usage
  shiro [prompt]                 interactive session (a prompt starts it off)
  shiro -p [prompt]              print mode: run to completion, answer on stdout
  echo "task" | shiro -p         the prompt from stdin
  cat err.log | shiro -p "why?"  stdin appended to the prompt as context
  shiro -p -i shot.png "why?"    an image with the prompt (also @shot.png)
  shiro sessions [--all] [--json]
                                 list sessions and how each last run ended
  shiro inspect <session> [--turns | <call> [--diff] [--full]] [--json]
                                 a session's turns and calls; one call's exact
                                 request, or what is new in it (--diff)
  shiro export <session> [--format md|json|html] [-o <file>]
                                 a session to read or hand on (docs/export.md)
  shiro import <file>            a JSON export as a new session here (-c)
  shiro registry <list|search|add|remove|installed> …
                                 skills and plugins from the registry
  shiro doctor                   the sandbox in force and why, config, base URL
  shiro undo [--list] [--to <turn>] [-r <session>] [--force] [--json]
                                 put back the files the newest turn changed
                                 (docs/undo.md); --prune drops what no
                                 saved session needs
  shiro acp [options]            an agent for editors (Zed, JetBrains, Neovim)
                                 over the Agent Client Protocol on stdio
                                 (docs/editors.md)
  shiro mcp list | test <name> [--mcp-config <file>]…
                                 MCP servers: each one's state and tools, or
                                 one started and checked (docs/mcp.md)

Options
  -p, --print            print mode (also when stdin is not a terminal)
  -i, --image <file>     send a PNG, JPEG, GIF or WebP image with the first
                         prompt (repeatable; docs/images.md)
  -m, --model <id>       model (default gpt-5; env SHIRO_MODEL)
      --base-url <url>   Responses API base URL (env OPENAI_BASE_URL)
      --max-steps <n>    stop after n model calls (default 50)
      --compact-at <n>   keep each request within n estimated tokens plus its
                         newest step (default 120000, at most 90% of the
                         model's context window)
      --idle-timeout <s> retry a model call after s seconds without a byte
                         from the API (default 120)
      --timeout <s>      print mode: stop the whole run after s seconds
      --max-cost <usd>   print mode: make no model call once the run has
                         cost this much (needs a priced model)
      --json             print mode: one JSON event per line on stdout
      --output-schema <file>
                         print mode: the answer is JSON matching this schema
  -o, --output <file>    print mode: also write the answer to this file
      --ephemeral        print mode: write nothing under $SHIRO_HOME
      --allow <rule>     allow calls a rule matches: tool or tool:pattern,
      --deny <rule>      e.g. 'bash:npm test*' (repeatable; after config's)
      --reasoning-effort <e>
                         minimal, low, medium, high or xhigh
      --yolo             approve what would ask, inside the box: no network,
                         no file tool outside the project, never the guard
      --plan             plan mode: only tools that read, commands read-only;
                         the model ends with a plan (docs/plan-mode.md)
      --no-plan          leave plan mode (-c goes on in the session's mode)
      --sandbox <mode>   read-only, workspace-write (default) or off
      --network          every command gets the network (else only those
                         a person approved)
      --no-network       no command gets the network, approved or not
      --add-dir <dir>    a folder commands may write besides the project
                         (repeatable)
      --agents <json>    child agents for this run, Claude Code's shape:
                         '{"name":{"description","prompt","tools"?}}'
                         (docs/agents.md)
  -c, --continue         continue the newest session in this folder
  -r, --resume <id>      resume a session by id or unique prefix
      --no-instructions  ignore AGENTS.md files
      --no-project-instructions
                         ignore the project's AGENTS.md files (the root's and
                         those of subfolders a tool touches); keep your own
      --no-memory        do not load or write project memory
      --hooks <file>     also run the hooks in this file, e.g. a project's
                         .shiro/settings.json unapproved (repeatable)
      --no-hooks         run no hooks at all (docs/hooks.md)
      --mcp-config <file> MCP servers in the .mcp.json shape (repeatable); a
                         project's own .mcp.json is then not read
      --no-mcp           start no MCP server
  -v, --version          print the version
  -h, --help             print this help

Exit codes
  0 finished · 1 model or API failure, or an answer not in --output-schema
  2 usage or configuration error · 3 stopped at --max-steps, --max-cost or
  --timeout · 4 a tool call was denied · 129 the terminal closed (SIGHUP)
  130 interrupted (Ctrl-C) · 143 stopped by SIGTERM; for these three the
  session is saved

State lives in $SHIRO_HOME (default ~/.shiro-neko); config.json keys are
listed in docs/configuration.md. The API key comes from OPENAI_API_KEY.`;
