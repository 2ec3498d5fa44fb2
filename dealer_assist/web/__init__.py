"""The thin web layer: the Flask factory, blueprints, live updates and the state's JSON.
"""
