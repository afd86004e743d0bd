"""Tools of the repository: build/ (the build's parts; build.py at the top runs them),
bench_bots.py (bot decision times, `python3 build.py bench-bots`) and rules_html.py (the in-app
rules pages).  A regular package, so that `import tools.build` finds this folder first."""
