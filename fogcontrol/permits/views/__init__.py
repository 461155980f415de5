"""The permits pages: applications (B3-B5), permits and their life (B1, B2, B6-B8), remodel notices (G1, G2)."""
