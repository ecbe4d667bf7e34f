"""The witness: a small service of the project, on another host, that keeps an append-only, signed
copy of every checkpoint head the project writes and countersigns it, so that cutting or rolling
back the project's own checkpoint log is seen (docs/chain.md, "The witness").

`python -m witness --port 8765 --data /var/lib/casino-witness --project-key checkpoint-public.pem`.
It imports nothing of the project nor Django and never reaches the project's database.
"""
