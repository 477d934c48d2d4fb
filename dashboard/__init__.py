"""The Streamlit dashboard of the Imperial lab (``streamlit run dashboard/app.py``)."""
