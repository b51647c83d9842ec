"""`boardbot web`: the analysis board, a browser page served with a JSON gateway to the server."""
