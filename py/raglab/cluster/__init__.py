"""Encoding and evaluation on a Dask cluster (native only; the browser never imports it).

`connect` opens a client (a scheduler address, or a loopback cluster of N worker
processes) and refuses workers that run other raglab code or another model file;
`encode` sends batches of texts to the workers and writes what comes back into the
client's vector cache, which only the client ever writes; `tasks` runs `raglab compare`'s
configurations and `raglab ask --questions`'s batches on the workers. Dask comes with
the optional extra ``raglab[cluster]``.
"""
