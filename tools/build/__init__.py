"""The build of Atut, in parts; ``build.py`` at the top of the repository is its one entry.

    common.py     paths (ROOT, .cache/), the log, BuildError, running Node and other tools
    setup.py      .venv/ (requirements-dev.txt), node_modules/ (npm ci), Chromium (apt-get)
                  and its headless launch for the browser tests
    wheel.py      the atut wheel (pip wheel; byte code for Pyodide added by wheel unpack/pack)
    pyodide.py    the Pyodide runtime, micropip, byte code (precompile.mjs)
    lab.py        the bot lab's editor bundle (lab.mjs: esbuild)
    snapshot.py   Python started with atut imported, as a memory snapshot (snapshot.mjs)
    manifest.py   the web app manifests (the icons are committed files, web/icons/)
    sw.py         the build id and the service worker (sw.mjs: workbox-build generateSW)
    dist.py       dist/ from all of the above, and web/build.json
    serve.py      the static server (build.py serve, the browser tests)
    commands.py   lint, test, the benchmarks and soak runs

Read dist.py first: it makes dist/ step by step.  Standard library only.  Each step that needs
Node runs a program of its own, a ``.mjs`` file here (linted by eslint), given its inputs on the
command line; the slow ones cache what they make in .cache/ by the hash of their inputs.
"""
